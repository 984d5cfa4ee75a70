import type { DeletionRequestList } from '../../../common/api/account-deletion'
import { apiRequest } from '../session/api-client'
import { signalOf } from './query-string'

/**
 * The open requests for deletion (GET /api/staff/deletion-requests, common/api/account-deletion.ts):
 * their screen lists them, and Equipe counts them in its link to that screen.
 */
export const listDeletionRequests = (signal?: AbortSignal) =>
  apiRequest<DeletionRequestList>('staff/deletion-requests', signalOf(signal))
