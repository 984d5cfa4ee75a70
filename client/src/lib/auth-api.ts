import type { AccountStatus, PublicUser } from '../../../common/account-rules'
import { apiRequest } from './api-client'

/** The auth API of DESIGN.md ("Auth API"). */

export type { AccountStatus }
export type User = PublicUser

export function signIn(email: string, password: string, signal?: AbortSignal) {
  return apiRequest<{ token: string; user: User }>('auth/login', {
    method: 'POST',
    body: { email, password },
    ...(signal ? { signal } : {}),
  })
}

export function signOutOnServer() {
  return apiRequest<void>('auth/logout', { method: 'POST' })
}

export function fetchCurrentUser(signal?: AbortSignal) {
  return apiRequest<{ user: User }>('auth/me', signal ? { signal } : {})
}

export function requestRegistration(name: string, email: string, password: string) {
  return apiRequest<{ status: 'pending' }>('auth/register', {
    method: 'POST',
    body: { name, email, password },
  })
}

export function requestPasswordRecovery(email: string) {
  return apiRequest<void>('auth/password-recovery', { method: 'POST', body: { email } })
}

export function resetPassword(token: string, password: string) {
  return apiRequest<void>('auth/password-reset', { method: 'POST', body: { token, password } })
}

/** Whether a mailed reset link still works, without using it (resolves when it does). */
export function checkPasswordResetLink(token: string, signal?: AbortSignal) {
  return apiRequest<void>('auth/password-reset/check', {
    method: 'POST',
    body: { token },
    ...(signal ? { signal } : {}),
  })
}

export function changePassword(currentPassword: string, newPassword: string) {
  return apiRequest<void>('auth/password', {
    method: 'POST',
    body: { currentPassword, newPassword },
  })
}

export function listStaff(signal?: AbortSignal) {
  return apiRequest<{ accounts: User[] }>('staff', signal ? { signal } : {})
}

export function setStaffStatus(id: string, status: 'active' | 'disabled') {
  return apiRequest<{ user: User }>(`staff/${encodeURIComponent(id)}/status`, {
    method: 'POST',
    body: { status },
  })
}
