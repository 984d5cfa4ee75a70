import type {
  MfaCodeBody,
  ProviderExchangeBody,
  SignedInWithCode,
  SignInAnswer,
  SignInBody,
} from '../../../../common/api/auth'
import { PASSWORD_SIGN_IN_ATTRIBUTE } from '../../../../common/sign-in-providers'
import { apiRequest, errorMessage } from '../../session/api-client'
import { LINK_BY_PASSWORD_MESSAGE, providerSignInMessage } from './provider-sign-in-messages'

/**
 * The login page's part of a return from a sign-in provider: loaded only when its address holds
 * `sso=` (a hand-off code to exchange for the session, POST /api/auth/oidc/exchange) or
 * `sso_error=` (why not, in words).
 */
export type ProviderReturn =
  | { kind: 'answer'; answer: SignInAnswer }
  | {
      kind: 'problem'
      message: string
      pending: boolean
      /** The provider named an account it did not vouch for: link it with its password. */
      linkByPassword: boolean
    }

/**
 * `link_required` with passwords on: the server keeps the provider's identity for this browser
 * (an HttpOnly cookie), and the login form links it by the account's password. With
 * PASSWORD_SIGN_IN=off the form is hidden (only the first admin keeps a password).
 */
const passwordsOn = () =>
  document.getElementById('root')?.getAttribute(PASSWORD_SIGN_IN_ATTRIBUTE) !== 'off'

export async function providerReturn(
  code: string | null,
  error: string | null,
): Promise<ProviderReturn> {
  if (code === null) {
    const linkByPassword = error === 'link_required' && passwordsOn()
    return {
      kind: 'problem',
      message: linkByPassword ? LINK_BY_PASSWORD_MESSAGE : (providerSignInMessage(error) ?? ''),
      pending: error === 'pending_approval',
      linkByPassword,
    }
  }
  try {
    const answer = await apiRequest<SignInAnswer>('auth/oidc/exchange', {
      method: 'POST',
      body: { code } satisfies ProviderExchangeBody,
    })
    return { kind: 'answer', answer }
  } catch (caught) {
    return { kind: 'problem', message: errorMessage(caught), pending: false, linkByPassword: false }
  }
}

/** The login form while linking: the account's e-mail and password (POST /api/auth/oidc/link). */
export const linkWithPassword = (email: string, password: string) =>
  apiRequest<SignInAnswer>('auth/oidc/link', {
    method: 'POST',
    body: { email, password } satisfies SignInBody,
  })

/** The second step of a link, for the challenge the password opened (POST …/link/mfa). */
export const linkWithCode = (challenge: string, code: string) =>
  apiRequest<SignedInWithCode>('auth/oidc/link/mfa', {
    method: 'POST',
    body: { challenge, code } satisfies MfaCodeBody,
  })
