import type { RoleItem } from '../../../../common/api/roles'
import type { StaffBulkAction } from '../../../../common/api/staff'
import { PERMISSIONS, type Permission, type RoleScope } from '../../../../common/permissions'
import { STAFF_BULK_ACTS, STAFF_PERMISSIONS as ACT } from '../../../../common/staff-permissions'
import type { StaffMember } from '../../api/staff-list-api'
import type { staffMessages } from './staff-messages'

export type StaffActionKind = keyof typeof staffMessages.actions

/** The permission each button's act needs, from the map the server checks (common/staff-permissions.ts). */
export const ACTION_PERMISSION: Readonly<Record<StaffActionKind, Permission>> = {
  approve: ACT.approve,
  refuse: ACT.refuse,
  disable: ACT.disable,
  enable: ACT.enable,
  disableInvitation: ACT.disable,
  enableInvitation: ACT.enable,
  makeAdmin: ACT.changeRoleTeamOrName,
  makeStaff: ACT.changeRoleTeamOrName,
  unlock: ACT.unlock,
  signOut: ACT.endSessions,
  reset: ACT.sendResetLink,
  mfaOff: ACT.removeSecondFactors,
  resendInvitation: ACT.invite,
}

export const BULK_PERMISSION: Readonly<Record<StaffBulkAction, Permission>> = {
  approve: ACT[STAFF_BULK_ACTS.approve],
  refuse: ACT[STAFF_BULK_ACTS.refuse],
  disable: ACT[STAFF_BULK_ACTS.disable],
}

/** What the viewer may do, as session/access.ts answers it. */
export interface ActionRights {
  can: (permission: Permission) => boolean
  /**
   * The backend has roles: a role is changed on the account's page ("Papel e time"), so the
   * old two-role shortcuts are not offered.
   */
  hasRoles: boolean
}

/**
 * The permissions that act on a person: every staff.* but staff.view, which only shows them (and
 * comes with any of them: server/roles/grant-rules.ts). Read from the catalogue, so a new one
 * counts without a change here.
 */
const ACTING_PERMISSIONS: readonly Permission[] = PERMISSIONS.filter(
  (permission) => permission.startsWith('staff.') && permission !== ACT.view,
)

/**
 * The person's role holds a permission the viewer's lacks (`outranksYou`, by the rule of
 * server/roles/rank.ts): the server refuses every action on them with 403 outranked. Absent
 * from an older backend: its refusals are then said in the dialog.
 */
const outranksViewer = (account: StaffMember) => account.outranksYou === true

/**
 * Whether Equipe offers anything to do to this person at all (buttons, the bulk checkbox, the
 * role and team, the name): not on one's own account (changed in Minha conta), nor on someone
 * who outranks the viewer.
 */
export const mayActOn = (account: StaffMember, meId: string | undefined) =>
  account.id !== meId && !outranksViewer(account)

/**
 * Whether to say, where the actions would be, that this person's role outranks the viewer's:
 * only to a viewer whose role acts on people (an auditor has no actions on anyone to miss).
 */
export const saysOutranked = (
  account: StaffMember,
  meId: string | undefined,
  { can }: Pick<ActionRights, 'can'>,
) => account.id !== meId && outranksViewer(account) && ACTING_PERMISSIONS.some(can)

/** The person's role, team and name may be changed here (staff.roles; not outranked). */
export const mayChangeRoleAndName = (
  account: StaffMember,
  meId: string | undefined,
  { can }: Pick<ActionRights, 'can'>,
) => mayActOn(account, meId) && can(ACT.changeRoleTeamOrName)

/**
 * What the viewer may do to an account, given its state, their permissions and its rank: the
 * first ones are shown as buttons, the rest in a menu. An action they may not do is not shown.
 */
export function actionsFor(
  account: StaffMember,
  { can, hasRoles }: ActionRights,
): { primary: StaffActionKind[]; more: StaffActionKind[] } {
  if (outranksViewer(account)) return { primary: [], more: [] }
  const allowed = (kind: StaffActionKind) => can(ACTION_PERMISSION[kind])
  const only = (kinds: StaffActionKind[]) => kinds.filter(allowed)
  if (account.status === 'pending') return { primary: only(['approve', 'refuse']), more: [] }
  const more: StaffActionKind[] = []
  if (account.locked) more.push('unlock')
  if (!hasRoles) more.push(account.role === 'admin' ? 'makeStaff' : 'makeAdmin')
  if (account.status === 'active') more.push('signOut', 'reset')
  if (account.mfa) more.push('mfaOff')
  let primary: StaffActionKind[]
  // Someone invited has no password yet: nothing may promise them one; a new link is what helps.
  if (account.status === 'invited') primary = ['resendInvitation', 'disableInvitation']
  else if (account.status === 'disabled' && account.invitationExpiresAt !== null)
    primary = ['enableInvitation']
  else primary = [account.status === 'active' ? 'disable' : 'enable']
  return { primary: only(primary), more: only(more) }
}

/** The bulk actions the viewer may take. */
export const bulkActionsAllowed = (
  actions: readonly StaffBulkAction[],
  can: (permission: Permission) => boolean,
) => actions.filter((action) => can(BULK_PERMISSION[action]))

/**
 * The roles the viewer may give: none with a permission they lack, nor reaching everyone when
 * theirs reaches only their team (the server refuses those with role_not_grantable).
 */
export const grantableRoles = (
  roles: readonly RoleItem[],
  { can, scope }: { can: (permission: Permission) => boolean; scope: RoleScope },
) =>
  roles.filter(
    (role) =>
      role.permissions.every(can) &&
      (scope === 'all' || role.scope === 'team' || role.permissions.length === 0),
  )
