import type { ProviderExchangeBody, SignInAnswer } from '../../../../common/api/auth'
import { apiRequest, errorMessage } from '../../api/api-client'
import { providerSignInMessage } from './provider-sign-in-messages'

/**
 * The login page's part of a return from a sign-in provider: loaded only when its address holds
 * `sso=` (a hand-off code to exchange for the session, POST /api/auth/oidc/exchange) or
 * `sso_error=` (why not, in words).
 */
export type ProviderReturn =
  { kind: 'answer'; answer: SignInAnswer } | { kind: 'problem'; message: string; pending: boolean }

export async function providerReturn(
  code: string | null,
  error: string | null,
): Promise<ProviderReturn> {
  if (code === null) {
    return {
      kind: 'problem',
      message: providerSignInMessage(error) ?? '',
      pending: error === 'pending_approval',
    }
  }
  try {
    const answer = await apiRequest<SignInAnswer>('auth/oidc/exchange', {
      method: 'POST',
      body: { code } satisfies ProviderExchangeBody,
    })
    return { kind: 'answer', answer }
  } catch (caught) {
    return { kind: 'problem', message: errorMessage(caught), pending: false }
  }
}
