import type {
  RecoveryBody,
  ResetBody,
  ResetCheckAnswer,
  ResetCheckBody,
} from '../../../../common/api/auth'
import { apiRequest } from '../../session/api-client'

/** A forgotten password's recovery and the mailed link's reset (common/api/auth.ts). */
export function requestPasswordRecovery(email: string) {
  return apiRequest<void>('auth/password-recovery', {
    method: 'POST',
    body: { email } satisfies RecoveryBody,
  })
}

export function resetPassword(token: string, password: string) {
  return apiRequest<void>('auth/password-reset', {
    method: 'POST',
    body: { token, password } satisfies ResetBody,
  })
}

/**
 * Whether a mailed reset link still works, without using it: resolves with the account's e-mail
 * when it does (nothing from a server that does not say it).
 */
export function checkPasswordResetLink(token: string, signal?: AbortSignal) {
  return apiRequest<ResetCheckAnswer | undefined>('auth/password-reset/check', {
    method: 'POST',
    body: { token } satisfies ResetCheckBody,
    ...(signal ? { signal } : {}),
  })
}
