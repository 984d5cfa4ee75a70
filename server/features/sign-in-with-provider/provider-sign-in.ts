import * as client from 'openid-client'
import { readCallbackQuery } from './callback-query'
import { isAllowedDomain } from './email-domain'
import { PENDING_LOGIN_TTL_MS, pendingLoginCookie, PendingLoginSeal } from './pending-login'
import { describeError, ProviderUnreachable, type ProviderConnection } from './provider-connection'
import { identityFromClaims, type ProviderIdentity } from './provider-identity'

/**
 * The relying party's two steps, without HTTP (the routes map them): `start` makes the
 * authorization URL (code flow, PKCE S256, state, nonce) and the sealed pending sign-in for the
 * browser's cookie; `finish` reads the callback, has openid-client redeem the code and validate
 * the ID token (signature with the provider's published keys, re-fetched for an unknown `kid`;
 * issuer; audience; exp/iat with DEFAULT_CLOCK_TOLERANCE_SECONDS; nonce; the `iss` parameter of
 * RFC 9207), then reads the provider's UserInfo endpoint when it has one (openid-client's
 * fetchUserInfo: its `sub` must be the token's; a signed UserInfo is checked like the token), and
 * says who signed in or why not.
 */

export interface PendingCookie {
  name: string
  value: string
  path: string
  maxAgeSeconds: number
}

export type StartOutcome =
  | { outcome: 'redirect'; url: URL; cookie: PendingCookie }
  | { outcome: 'provider_unreachable'; detail: string }

/**
 * Why a sign-in at a provider did not identify anyone. The words the login page shows are in
 * client/src/features/sign-in/provider-sign-in-messages.ts; `detail` is for the log and the audit, never for the page.
 */
export type Refusal =
  /** The person cancelled at the provider (error=access_denied). */
  | 'cancelled'
  /** The provider answered with another error. */
  | 'provider_error'
  /** The query is not a callback (missing, repeated or oversized parameters). */
  | 'invalid_callback'
  /** No pending sign-in for this state in this browser: expired, used, another browser's, forged. */
  | 'link_expired'
  | 'provider_unreachable'
  /** The token endpoint refused the code: used before, another client's, expired, or a wrong verifier. */
  | 'code_rejected'
  /** The ID token failed validation: signature or key, issuer, audience, expiry, nonce. */
  | 'token_rejected'
  /** The UserInfo endpoint failed: unreachable, an error, or an answer that is not valid. */
  | 'userinfo_failed'
  /** UserInfo answered for another person (its `sub` is not the ID token's). */
  | 'userinfo_mismatch'
  | 'domain_not_allowed'

export type FinishOutcome =
  | {
      outcome: 'identified'
      identity: ProviderIdentity
      redirectTarget: string | null
      /** The admin's link the sign-in was started from (its token's hash), if any. */
      invitation: string | null
    }
  | { outcome: 'refused'; refusal: Refusal; detail: string }

export class ProviderSignIn {
  private readonly seal: PendingLoginSeal

  constructor(private readonly connection: ProviderConnection) {
    this.seal = new PendingLoginSeal(connection.provider.clientSecret, connection.provider.name)
  }

  get providerName(): string {
    return this.connection.provider.name
  }

  /**
   * `redirectTarget` must already have passed the ?redirect= rules (null: the dashboard).
   * `invitation`: the hash of an admin's link already checked, sealed with the pending sign-in.
   */
  async start(redirectTarget: string | null, invitation?: string): Promise<StartOutcome> {
    let configuration: client.Configuration
    try {
      configuration = await this.connection.configuration()
    } catch (error) {
      return { outcome: 'provider_unreachable', detail: describeError(error) }
    }
    const { provider } = this.connection
    const state = client.randomState()
    const nonce = client.randomNonce()
    const codeVerifier = client.randomPKCECodeVerifier()
    const url = client.buildAuthorizationUrl(configuration, {
      redirect_uri: this.connection.redirectUri,
      scope: provider.scopes.join(' '),
      state,
      nonce,
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
    })
    const cookie = pendingLoginCookie(provider.name, state)
    const value = this.seal.seal({
      provider: provider.name,
      state,
      codeVerifier,
      nonce,
      redirectTarget,
      ...(invitation === undefined ? {} : { invitation }),
      expiresAt: this.connection.now().getTime() + PENDING_LOGIN_TTL_MS,
    })
    return { outcome: 'redirect', url, cookie: { ...cookie, value } }
  }

  /** The cookie `finish` needs for this callback query (by its state), if the query has one. */
  pendingCookieName(rawQuery: string): string | null {
    const query = readCallbackQuery(rawQuery)
    const state = query.kind === 'malformed' ? null : query.state
    return state === null ? null : pendingLoginCookie(this.providerName, state).name
  }

  /**
   * The callback: `rawQuery` as the browser sent it (after `?`), `sealedPending` the cookie
   * `pendingCookieName` names. The caller clears that cookie whatever the outcome.
   */
  async finish(rawQuery: string, sealedPending: string | undefined): Promise<FinishOutcome> {
    const refuse = (refusal: Refusal, detail: string): FinishOutcome => ({
      outcome: 'refused',
      refusal,
      detail,
    })
    const query = readCallbackQuery(rawQuery)
    if (query.kind === 'malformed') return refuse('invalid_callback', 'malformed callback query')
    const pending =
      query.state === null
        ? null
        : this.seal.open(sealedPending, query.state, this.connection.now())
    if (query.kind === 'error') {
      // An error for a sign-in this browser did not start is not worth a word more.
      if (pending === null) return refuse('link_expired', 'error answer without a pending sign-in')
      return query.cancelled
        ? refuse('cancelled', 'access_denied at the provider')
        : refuse('provider_error', 'the provider answered with an error')
    }
    if (pending === null) {
      return refuse('link_expired', 'no pending sign-in for this state in this browser')
    }
    let configuration: client.Configuration
    try {
      configuration = await this.connection.configuration()
    } catch (error) {
      return refuse('provider_unreachable', describeError(error))
    }
    const { provider } = this.connection
    let claims: client.IDToken | undefined
    let accessToken: string
    try {
      const tokens = await client.authorizationCodeGrant(
        configuration,
        new URL(`${this.connection.redirectUri}?${query.params.toString()}`),
        {
          pkceCodeVerifier: pending.codeVerifier,
          expectedState: pending.state,
          expectedNonce: pending.nonce,
          idTokenExpected: true,
        },
      )
      claims = tokens.claims()
      accessToken = tokens.access_token
    } catch (error) {
      return refuse(refusalFor(error), describeError(error))
    }
    if (!claims) return refuse('token_rejected', 'no ID token')
    let userInfo: client.UserInfoResponse | null = null
    if (configuration.serverMetadata().userinfo_endpoint !== undefined) {
      try {
        userInfo = await client.fetchUserInfo(configuration, accessToken, claims.sub)
      } catch (error) {
        return refuse(userInfoRefusalFor(error), describeError(error))
      }
    }
    const identity = identityFromClaims(provider, claims, userInfo)
    if (!isAllowedDomain(identity.email, identity.emailVerified, provider.allowedDomains)) {
      return refuse(
        'domain_not_allowed',
        identity.email === null
          ? 'no e-mail'
          : `${identity.emailVerified ? '' : 'unverified '}e-mail of ${identity.email.slice(identity.email.lastIndexOf('@') + 1)}`,
      )
    }
    return {
      outcome: 'identified',
      identity,
      redirectTarget: pending.redirectTarget,
      invitation: typeof pending.invitation === 'string' ? pending.invitation : null,
    }
  }
}

/** fetchUserInfo's error: another person's `sub`, or anything else that kept it from answering. */
function userInfoRefusalFor(error: unknown): Refusal {
  // The only attribute fetchUserInfo compares to an expected value is `sub`.
  return (error as { code?: unknown }).code === 'OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED'
    ? 'userinfo_mismatch'
    : 'userinfo_failed'
}

/** openid-client's error, as one of our refusals. */
function refusalFor(error: unknown): Refusal {
  if (error instanceof ProviderUnreachable) return 'provider_unreachable'
  if (error instanceof client.ResponseBodyError) return 'code_rejected'
  // fetch's own failures (refused connection, timeout) are not openid-client's errors.
  if (!(error instanceof client.ClientError)) return 'provider_unreachable'
  if (error.code === 'OAUTH_TIMEOUT' || error.code === 'OAUTH_ABORT') return 'provider_unreachable'
  return 'token_rejected'
}
