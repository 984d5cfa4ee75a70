import type { AuditPage, AuditQuery } from '../../../common/api/audit'
import { apiRequest } from '../session/api-client'
import { queryString, signalOf } from '../api/query-string'

/**
 * A page of the audit log (GET /api/audit, common/api/audit.ts): Auditoria and an account's page
 * in Equipe list it. Types only from common/api.
 */
export const listAudit = (query: AuditQuery, signal?: AbortSignal) =>
  apiRequest<AuditPage>(`audit${queryString(query)}`, signalOf(signal))
