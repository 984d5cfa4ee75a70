import type { PasskeyOptionsBody, PasskeySignInBody, SignedIn } from '../../../../common/api/auth'
import type { AuthenticationCredential, RequestOptions } from '../../../../common/api/webauthn'
import { apiRequest } from '../../session/api-client'

/**
 * Signing in with a passkey (common/api/auth.ts: POST /api/auth/passkey/options, POST
 * /api/auth/passkey), alone or as the second factor of a login (`challenge`). Loaded only when a
 * passkey is used.
 */
export const passkeySignInOptions = (challenge?: string) =>
  apiRequest<RequestOptions>('auth/passkey/options', {
    method: 'POST',
    body: (challenge === undefined ? {} : { challenge }) satisfies PasskeyOptionsBody,
  })

export const signInWithPasskey = (response: AuthenticationCredential, challenge?: string) =>
  apiRequest<SignedIn>('auth/passkey', {
    method: 'POST',
    body: (challenge === undefined
      ? { response }
      : { response, challenge }) satisfies PasskeySignInBody,
  })
