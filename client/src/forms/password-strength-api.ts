import type { PasswordStrength, PasswordStrengthBody } from '../../../common/api/auth'
import { apiRequest } from '../session/api-client'

/** How hard a password being chosen is to guess (POST /api/auth/password-strength, common/api/auth.ts). */
export function estimatePasswordStrength(
  password: string,
  userInputs: string[],
  signal: AbortSignal,
): Promise<PasswordStrength> {
  return apiRequest<PasswordStrength>('auth/password-strength', {
    method: 'POST',
    body: { password, userInputs } satisfies PasswordStrengthBody,
    signal,
  })
}
