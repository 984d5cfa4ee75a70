import { apiRequest } from '../../session/api-client'
import { announceStaffChange } from '../../api/staff-changed-event'

/**
 * An admin's decisions on a request (common/api/account-deletion.ts). Each announces the change,
 * so the sidebar's count of open requests follows at once.
 */

export const anonymiseAccount = async (accountId: string) => {
  await apiRequest<void>(`staff/${encodeURIComponent(accountId)}/anonymise`, { method: 'POST' })
  announceStaffChange()
}

export const refuseDeletionRequest = async (accountId: string, reason: string) => {
  await apiRequest<void>(`staff/${encodeURIComponent(accountId)}/deletion-request/refuse`, {
    method: 'POST',
    body: { reason },
  })
  announceStaffChange()
}
