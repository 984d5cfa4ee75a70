import type { SignInAnswer, SignInBody } from '../../../../common/api/auth'
import { apiRequest } from '../../session/api-client'

/** Signing in with e-mail and password (POST /api/auth/login, common/api/auth.ts). */
export function signIn(email: string, password: string, signal?: AbortSignal) {
  return apiRequest<SignInAnswer>('auth/login', {
    method: 'POST',
    body: { email, password } satisfies SignInBody,
    ...(signal ? { signal } : {}),
  })
}
