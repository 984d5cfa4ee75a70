import type { StaffItem, StaffList, StaffQuery } from '../../../common/api/staff'
import { apiRequest } from '../session/api-client'
import { queryString, signalOf } from './query-string'

type RoleAndTeam = 'roleId' | 'roleName' | 'teamId' | 'teamName' | 'outranksYou'

/**
 * A person in the staff list with their role and team. Read as optional: a backend behind
 * API_UPSTREAM that predates roles answers `role` alone, and the screens fall back on it (and,
 * without `outranksYou`, offer the actions the viewer's permissions allow: the server judges).
 */
export type StaffMember = Omit<StaffItem, RoleAndTeam> & Partial<Pick<StaffItem, RoleAndTeam>>

/** GET /api/staff's answer, its people with their role and team. */
export type StaffMemberList = Omit<StaffList, 'items'> & { items: StaffMember[] }

/**
 * The staff list (GET /api/staff, common/api/staff.ts): Equipe lists it, Auditoria's filter
 * names its people, a role's page its holders. Types only from common/api.
 */
export const listStaff = (query: StaffQuery, signal?: AbortSignal) =>
  apiRequest<StaffMemberList>(`staff${queryString(query)}`, signalOf(signal))
