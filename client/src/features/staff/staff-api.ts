import type { AuditCsvQuery, AuditPage, AuditQuery } from '../../../../common/api/audit'
import type { Dashboard, MyActivity } from '../../../../common/api/dashboard'
import type {
  InvitationBody,
  StaffAccount,
  StaffChangeBody,
  StaffItemAnswer,
  StaffList,
  StaffQuery,
} from '../../../../common/api/staff'
import { apiDownload, apiRequest } from '../../api/api-client'

/**
 * The admins' API (docs/architecture.md, "Fixed contracts"): staff, audit log, dashboard. Types from the server's
 * route schemas (type imports only: no schema reaches the bundle).
 */

const signalOf = (signal?: AbortSignal) => (signal ? { signal } : {})

/** `?a=1&b=2` of the values given; empty ones are left out. */
export function queryString(query: Record<string, string | undefined>): string {
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(query)) if (value) params.set(key, value)
  const text = params.toString()
  return text ? `?${text}` : ''
}

const account = (id: string) => `staff/${encodeURIComponent(id)}`

export const listStaff = (query: StaffQuery, signal?: AbortSignal) =>
  apiRequest<StaffList>(`staff${queryString(query)}`, signalOf(signal))

/** The sidebar's count of waiting registrations, asked every minute: not the person's use. */
export const countPendingInBackground = (signal: AbortSignal) =>
  apiRequest<StaffList>(`staff${queryString({ status: 'pending', pageSize: '1' })}`, {
    signal,
    background: true,
  })

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

export const sendStaffResetLink = (id: string) =>
  apiRequest<void>(`${account(id)}/password-reset`, { method: 'POST' })

export const resendStaffInvitation = (id: string) =>
  apiRequest<void>(`${account(id)}/invitation`, { method: 'POST' })

export const removeStaffMfa = (id: string) =>
  apiRequest<void>(`${account(id)}/mfa`, { method: 'DELETE' })

export const inviteStaff = (body: InvitationBody) =>
  apiRequest<StaffItemAnswer>('staff/invitations', { method: 'POST', body })

export const listAudit = (query: AuditQuery, signal?: AbortSignal) =>
  apiRequest<AuditPage>(`audit${queryString(query)}`, signalOf(signal))

/** The CSV's times in this browser's time zone, as the screen shows them. */
export const downloadAuditCsv = (query: AuditQuery) => {
  const withZone: AuditCsvQuery = { ...query, tz: Intl.DateTimeFormat().resolvedOptions().timeZone }
  return apiDownload(`audit.csv${queryString(withZone)}`)
}

export const fetchDashboard = (signal?: AbortSignal) =>
  apiRequest<Dashboard>('dashboard', signalOf(signal))

export const fetchMyActivity = (signal?: AbortSignal) =>
  apiRequest<MyActivity>('dashboard/me', signalOf(signal))

/** Told when an admin changed an account, so the sidebar's pending count follows at once. */
export const STAFF_CHANGED_EVENT = 'painel:staff-changed'
export const announceStaffChange = () => window.dispatchEvent(new Event(STAFF_CHANGED_EVENT))
