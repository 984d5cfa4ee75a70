import type {
  InvitationBody,
  StaffAccount,
  StaffBulkAnswer,
  StaffBulkBody,
  StaffChangeBody,
  StaffItemAnswer,
} from '../../../../common/api/staff'
import { apiRequest } from '../../session/api-client'
import { signalOf } from '../../api/query-string'

/**
 * The staff administration's API (admins; common/api/staff.ts): an account, its changes,
 * invitations. Types only from common/api (no schema reaches the bundle).
 */

const account = (id: string) => `staff/${encodeURIComponent(id)}`

export const fetchStaffAccount = (id: string, signal?: AbortSignal) =>
  apiRequest<StaffAccount>(account(id), signalOf(signal))

export const changeStaff = (id: string, change: StaffChangeBody) =>
  apiRequest<StaffItemAnswer>(account(id), { method: 'PATCH', body: change })

export const refuseRegistration = (id: string, reason: string) =>
  apiRequest<void>(account(id), { method: 'DELETE', body: reason ? { reason } : {} })

export const unlockStaff = (id: string) =>
  apiRequest<void>(`${account(id)}/unlock`, { method: 'POST' })

export const endStaffSessions = (id: string) =>
  apiRequest<void>(`${account(id)}/sign-out`, { method: 'POST' })

/** Mails the person a link to connect this provider (docs/single-sign-on.md, "An admin's link"). */
export const sendProviderLinkInvitation = (id: string, provider: string) =>
  apiRequest<void>(`${account(id)}/provider-link-invitations`, {
    method: 'POST',
    body: { provider },
  })

export const sendStaffResetLink = (id: string) =>
  apiRequest<void>(`${account(id)}/password-reset`, { method: 'POST' })

export const resendStaffInvitation = (id: string) =>
  apiRequest<void>(`${account(id)}/invitation`, { method: 'POST' })

export const removeStaffMfa = (id: string) =>
  apiRequest<void>(`${account(id)}/mfa`, { method: 'DELETE' })

export const inviteStaff = (body: InvitationBody) =>
  apiRequest<StaffItemAnswer>('staff/invitations', { method: 'POST', body })

export const bulkChangeStaff = (body: StaffBulkBody) =>
  apiRequest<StaffBulkAnswer>('staff/bulk', { method: 'POST', body })
