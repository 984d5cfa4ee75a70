import { apiRequest } from '../../api/api-client'

/** An admin's decisions on a request (common/api/account-deletion.ts). */

export const anonymiseAccount = (accountId: string) =>
  apiRequest<void>(`staff/${encodeURIComponent(accountId)}/anonymise`, { method: 'POST' })

export const refuseDeletionRequest = (accountId: string, reason: string) =>
  apiRequest<void>(`staff/${encodeURIComponent(accountId)}/deletion-request/refuse`, {
    method: 'POST',
    body: { reason },
  })
