import type { Dashboard, MyActivity } from '../../../../common/api/dashboard'
import { apiRequest } from '../../api/api-client'
import { signalOf } from '../../api/query-string'

/** Início's figures (common/api/dashboard.ts). Types only from common/api. */
export const fetchDashboard = (signal?: AbortSignal) =>
  apiRequest<Dashboard>('dashboard', signalOf(signal))

export const fetchMyActivity = (signal?: AbortSignal) =>
  apiRequest<MyActivity>('dashboard/me', signalOf(signal))
