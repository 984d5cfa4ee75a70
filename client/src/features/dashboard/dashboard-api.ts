import type { Dashboard, MyActivity } from '../../../../common/api/dashboard'
import { apiRequest } from '../../session/api-client'

/** Início's figures (common/api/dashboard.ts). Types only from common/api. */
export const fetchDashboard = (signal?: AbortSignal) =>
  apiRequest<Dashboard>('dashboard', signal ? { signal } : {})

export const fetchMyActivity = (signal?: AbortSignal) =>
  apiRequest<MyActivity>('dashboard/me', signal ? { signal } : {})
