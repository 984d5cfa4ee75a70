import type { UserAnswer } from '../../../../common/api/account'
import type { ChangePasswordBody } from '../../../../common/api/auth'
import type { SessionList } from '../../../../common/api/me'
import { apiRequest } from '../../api/api-client'

/**
 * Minha conta's own calls (common/api/me.ts, common/api/auth.ts): the name, the password, the
 * open sessions. The second factor's are in second-factor/second-factor-api.ts. Types only.
 */

export type { SessionItem } from '../../../../common/api/me'

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
