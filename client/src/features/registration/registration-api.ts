import type { Registered, RegisterBody } from '../../../../common/api/auth'
import { apiRequest } from '../../api/api-client'

/** Asking for an account (POST /api/auth/register, common/api/auth.ts). */
export function requestRegistration(name: string, email: string, password: string) {
  return apiRequest<Registered>('auth/register', {
    method: 'POST',
    body: { name, email, password } satisfies RegisterBody,
  })
}
