import type { AccountStatus, MeAnswer, PublicUser } from '../../../common/api/account'
import type {
  ChangePasswordBody,
  RecoveryBody,
  Registered,
  RegisterBody,
  ResetBody,
  ResetCheckBody,
  SignInAnswer,
  SignInBody,
} from '../../../common/api/auth'
import { apiRequest } from '../api/api-client'

/**
 * The panel's API (docs/architecture.md), with the request and answer types the server's route schemas give
 * (common/api): type imports only, so the schemas themselves never reach the bundle.
 */

export type { AccountStatus }
export type User = PublicUser

export function signIn(email: string, password: string, signal?: AbortSignal) {
  return apiRequest<SignInAnswer>('auth/login', {
    method: 'POST',
    body: { email, password } satisfies SignInBody,
    ...(signal ? { signal } : {}),
  })
}

export function signOutOnServer() {
  return apiRequest<void>('auth/logout', { method: 'POST' })
}

export function fetchCurrentUser(signal?: AbortSignal) {
  return apiRequest<MeAnswer>('auth/me', signal ? { signal } : {})
}

export function requestRegistration(name: string, email: string, password: string) {
  return apiRequest<Registered>('auth/register', {
    method: 'POST',
    body: { name, email, password } satisfies RegisterBody,
  })
}

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

/** Whether a mailed reset link still works, without using it (resolves when it does). */
export function checkPasswordResetLink(token: string, signal?: AbortSignal) {
  return apiRequest<void>('auth/password-reset/check', {
    method: 'POST',
    body: { token } satisfies ResetCheckBody,
    ...(signal ? { signal } : {}),
  })
}

export function changePassword(currentPassword: string, newPassword: string) {
  return apiRequest<void>('auth/password', {
    method: 'POST',
    body: { currentPassword, newPassword } satisfies ChangePasswordBody,
  })
}
