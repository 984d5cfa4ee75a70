import type { StaffItem, StaffList, StaffQuery } from '../../../common/api/staff'
import { apiRequest } from './api-client'
import { queryString, signalOf } from './query-string'

/**
 * A person in the staff list with their role and team (issue 29). Optional: a backend behind
 * API_UPSTREAM that predates roles answers `role` alone, and the screens fall back on it.
 */
export type StaffMember = StaffItem & {
  roleId?: string
  roleName?: string
  teamId?: string | null
  teamName?: string | null
}

/** GET /api/staff's answer, its people with their role and team. */
export type StaffMemberList = Omit<StaffList, 'items'> & { items: StaffMember[] }

/** The list's filters, with a role and a team by id (issue 29). */
export type StaffListQuery = StaffQuery & { roleId?: string; teamId?: string }

/**
 * The staff list (GET /api/staff, common/api/staff.ts): Equipe lists it, Auditoria's filter
 * names its people, a role's page its holders. Types only from common/api.
 */
export const listStaff = (query: StaffListQuery, signal?: AbortSignal) =>
  apiRequest<StaffMemberList>(`staff${queryString(query)}`, signalOf(signal))
