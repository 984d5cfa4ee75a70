import type { StaffBulkAction } from './api/staff'
import type { Permission } from './permissions'

/**
 * What each act of staff administration needs (common/permissions.ts), the one map read by the
 * server's routes and checks (server/features/staff/), the OpenAPI document (the routes'
 * `x-permission` and, where the body chooses the act, `x-action-permissions`), Equipe's buttons
 * (client/src/features/staff/staff-action-rules.ts), its route objects and the sidebar's counts
 * of waiting registrations and open requests for deletion.
 */
export const STAFF_PERMISSIONS = {
  /** The list, an account's page and its open sessions (Equipe itself). */
  view: 'staff.view',
  /** A pending registration accepted (its status leaves `pending`). */
  approve: 'staff.approve',
  /** A pending registration refused and removed. */
  refuse: 'staff.approve',
  /** An account disabled (an invitation withdrawn likewise). */
  disable: 'staff.disable',
  /** A disabled account enabled again. */
  enable: 'staff.disable',
  /** The role, the team, the name or the e-mail of someone else changed. */
  changeRoleTeamOrName: 'staff.roles',
  invite: 'staff.invite',
  unlock: 'staff.unlock',
  endSessions: 'staff.sessions',
  sendResetLink: 'staff.reset',
  removeSecondFactors: 'staff.mfa_reset',
  anonymise: 'staff.delete',
} as const satisfies Record<string, Permission>

export type StaffAct = keyof typeof STAFF_PERMISSIONS

/** The acts PATCH /api/staff/{id}'s body may ask for, each checked on its own. */
export const STAFF_CHANGE_ACTS = ['approve', 'disable', 'enable', 'changeRoleTeamOrName'] as const

/** The acts of POST /api/staff/bulk, by the body's `action` (the same words). */
export const STAFF_BULK_ACTS: Readonly<Record<StaffBulkAction, StaffAct>> = {
  approve: 'approve',
  refuse: 'refuse',
  disable: 'disable',
}

/** The permission of each of these acts, as an operation's `x-action-permissions` says it. */
export const actionPermissions = (acts: readonly StaffAct[]): Record<string, Permission> =>
  Object.fromEntries(acts.map((act) => [act, STAFF_PERMISSIONS[act]]))

/** Who sees the count of waiting registrations: whoever may see them and approve them. */
export const SEES_WAITING_REGISTRATIONS: readonly Permission[] = [
  STAFF_PERMISSIONS.view,
  STAFF_PERMISSIONS.approve,
]

/**
 * Who sees the count of open requests for deletion: whoever may see Equipe (the count comes with
 * its list, server/features/staff/staff-routes.ts) and decide the requests.
 */
export const SEES_DELETION_REQUESTS: readonly Permission[] = [
  STAFF_PERMISSIONS.view,
  STAFF_PERMISSIONS.anonymise,
]
