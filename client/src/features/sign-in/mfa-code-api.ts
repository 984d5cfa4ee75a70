import type { MfaCodeBody, MfaRequired, SignedInWithCode } from '../../../../common/api/auth'
import { apiRequest } from '../../session/api-client'

/**
 * The sign-in's second step with a code (common/api/auth.ts: POST /api/auth/login/mfa). Loaded
 * with that step only, never with the cold login page.
 */
export type Challenge = MfaRequired['mfa']

export const signInWithCode = (challenge: string, code: string) =>
  apiRequest<SignedInWithCode>('auth/login/mfa', {
    method: 'POST',
    body: { challenge, code } satisfies MfaCodeBody,
  })
