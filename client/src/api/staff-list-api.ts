import type { StaffList, StaffQuery } from '../../../common/api/staff'
import { apiRequest } from './api-client'
import { queryString, signalOf } from './query-string'

/**
 * The staff list (GET /api/staff, common/api/staff.ts): Equipe lists it, Auditoria's filter
 * names its people. Types only from common/api.
 */
export const listStaff = (query: StaffQuery, signal?: AbortSignal) =>
  apiRequest<StaffList>(`staff${queryString(query)}`, signalOf(signal))
