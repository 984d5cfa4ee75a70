import type { UserAnswer } from '../../../../common/api/account'
import type { ChangePasswordBody } from '../../../../common/api/auth'
import type { SessionList } from '../../../../common/api/me'
import type { ProviderLinkList } from '../../../../common/api/provider-links'
import { apiRequest } from '../../session/api-client'

/**
 * Minha conta's own calls (common/api/me.ts, common/api/auth.ts): the name, the password, the
 * open sessions. The second factor's are in second-factor/second-factor-api.ts. Types only.
 */

export type { SessionItem } from '../../../../common/api/me'
export type { ProviderLink } from '../../../../common/api/provider-links'

const idPath = (id: string) => encodeURIComponent(id)

/** One's own name, corrected (PATCH /api/me). */
export const renameMe = (name: string) =>
  apiRequest<UserAnswer>('me', { method: 'PATCH', body: { name } })

export function changePassword(currentPassword: string, newPassword: string) {
  return apiRequest<void>('auth/password', {
    method: 'POST',
    body: { currentPassword, newPassword } satisfies ChangePasswordBody,
  })
}

export const listSessions = (signal?: AbortSignal) =>
  apiRequest<SessionList>('me/sessions', signal ? { signal } : {})

export const endSession = (id: string) =>
  apiRequest<void>(`me/sessions/${idPath(id)}`, { method: 'DELETE' })

export const endOtherSessions = () => apiRequest<void>('me/sessions', { method: 'DELETE' })

/** The sign-in providers linked to one's account (GET /api/me/providers). */
export const listProviderLinks = (signal?: AbortSignal) =>
  apiRequest<ProviderLinkList>('me/providers', signal ? { signal } : {})

export const unlinkProvider = (id: string) =>
  apiRequest<void>(`me/providers/${idPath(id)}`, { method: 'DELETE' })
