import type { MeAnswer } from '../../../common/api/account'
import type { CurrentSession } from '../../../common/api/me'
import { apiRequest } from './api-client'

/**
 * The session's own calls (common/api/auth.ts, common/api/me.ts): who is signed in, signing out,
 * the session's idle limits and their renewal. Type imports only, so the schemas never reach the
 * bundle.
 */

export type { CurrentSession }

export function signOutOnServer() {
  return apiRequest<void>('auth/logout', { method: 'POST' })
}

export function fetchCurrentUser(signal?: AbortSignal) {
  return apiRequest<MeAnswer>('auth/me', signal ? { signal } : {})
}

export const fetchCurrentSession = () => apiRequest<CurrentSession>('me/session')

export const renewSession = () => apiRequest<CurrentSession>('me/session/renew', { method: 'POST' })
