import type {
  InvitationBody,
  StaffAccount,
  StaffBulkAnswer,
  StaffBulkBody,
  StaffChangeBody,
  StaffItemAnswer,
} from '../../../../common/api/staff'
import type { Role } from '../../../../common/api/account'
import { apiRequest } from '../../api/api-client'
import { signalOf } from '../../api/query-string'

/**
 * The staff administration's API (admins; common/api/staff.ts): an account, its changes,
 * invitations. Types only from common/api (no schema reaches the bundle).
 */

/** A change of an account, its role and team by id among them (issue 29). */
export type StaffChange = StaffChangeBody & { roleId?: string; teamId?: string | null }

/**
 * An invitation: with roles, the role and team by id; from an older backend, the old `role`.
 */
export type InviteBody = Omit<InvitationBody, 'role'> & {
  role?: Role
  roleId?: string
  teamId?: string | null
}

const account = (id: string) => `staff/${encodeURIComponent(id)}`

export const fetchStaffAccount = (id: string, signal?: AbortSignal) =>
  apiRequest<StaffAccount>(account(id), signalOf(signal))

export const changeStaff = (id: string, change: StaffChange) =>
  apiRequest<StaffItemAnswer>(account(id), { method: 'PATCH', body: change })

export const refuseRegistration = (id: string, reason: string) =>
  apiRequest<void>(account(id), { method: 'DELETE', body: reason ? { reason } : {} })

export const unlockStaff = (id: string) =>
  apiRequest<void>(`${account(id)}/unlock`, { method: 'POST' })

export const endStaffSessions = (id: string) =>
  apiRequest<void>(`${account(id)}/sign-out`, { method: 'POST' })

export const sendStaffResetLink = (id: string) =>
  apiRequest<void>(`${account(id)}/password-reset`, { method: 'POST' })

export const resendStaffInvitation = (id: string) =>
  apiRequest<void>(`${account(id)}/invitation`, { method: 'POST' })

export const removeStaffMfa = (id: string) =>
  apiRequest<void>(`${account(id)}/mfa`, { method: 'DELETE' })

export const inviteStaff = (body: InviteBody) =>
  apiRequest<StaffItemAnswer>('staff/invitations', { method: 'POST', body })

export const bulkChangeStaff = (body: StaffBulkBody) =>
  apiRequest<StaffBulkAnswer>('staff/bulk', { method: 'POST', body })
