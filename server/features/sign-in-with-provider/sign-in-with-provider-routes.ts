import cookie from '@fastify/cookie'
import type { FastifyReply } from 'fastify'
import {
  MfaCodeBodySchema,
  ProviderExchangeBodySchema,
  ProviderParamsSchema,
  ProviderStartQuerySchema,
  SignedInWithCodeSchema,
  SignInAnswerSchema,
  SignInBodySchema,
  type SignedInWithCode,
} from '../../../common/api/auth'
import { errorAnswers, NoContentSchema } from '../../../common/api/errors'
import {
  LinkInvitationSchema,
  LinkInvitationStartSchema,
  LinkInvitationTokenBodySchema,
} from '../../../common/api/provider-links'
import { SSO_CODE_PARAM, SSO_ERROR_PARAM } from '../../../common/provider-sign-in-errors'
import { answerSignIn } from '../../sign-in-steps/answer-sign-in'
import { findAccountById } from '../../accounts/accounts'
import { providerLabel } from '../../config/auth-providers'
import { burstLimit, guardedRoutes } from '../../access/guarded-routes'
import { hashingQueue } from '../../accounts/passwords'
import { PENDING_LINK_TTL_SECONDS } from '../../accounts/pending-link-lifetime'
import { recordAccountEvent } from '../../audit-log/account-events'
import { apiError } from '../../http/errors'
import { requestOrigin } from '../../http/request-origin'
import { checkOrigin } from '../../sign-in-steps/check-origin'
import { exchangeHandOff } from './exchange-hand-off'
import { DatabaseHandOffStore, HandOffCodes } from './hand-off-codes'
import { linkWithCode, linkWithPassword, type LinkResult } from './link-by-password'
import { findLinkInvitation, invitationHashOf } from './link-invitations'
import { PENDING_LINK_COOKIE, PENDING_LINK_COOKIE_PATH } from './pending-links'
import { finishCallback } from './provider-callback'
import { ProviderConnection } from './provider-connection'
import { ProviderSignIn } from './provider-sign-in'
import { startRedirectTarget } from './redirect-target'

/** The login page, with the query a provider's return gives it (in the fragment: no server sees it). */
const loginPage = (query: Record<string, string>) =>
  `/#/login?${new URLSearchParams(query).toString()}`

/**
 * Signing in at the providers of AUTH_PROVIDERS (docs/single-sign-on.md), under /api/auth:
 * the button's start, the provider's callback, and the login page's exchange of the hand-off code
 * for the session. Anyone may call them, counted by the burst limit per address. A provider that
 * cannot be reached does not hold up the start of the server: each is discovered in the
 * background now and again when needed (provider-connection.ts).
 */
export default guardedRoutes([burstLimit], async (app, context) => {
  await app.register(cookie)
  const { config } = context
  const secure = config.https
  const providers = new Map(
    config.authProviders.map((provider) => {
      const connection = new ProviderConnection(provider, {
        redirectUri: `${config.publicUrl}/api/auth/oidc/${provider.name}/callback`,
        log: {
          info: (message) => app.log.info(message),
          warn: (message) => app.log.warn(message),
        },
      })
      void connection.warmUp()
      return [provider.name, { provider, signIn: new ProviderSignIn(connection) }] as const
    }),
  )
  const handOffs = new HandOffCodes(new DatabaseHandOffStore(context.db), context.now)
  const configured = (name: string) => {
    const found = providers.get(name)
    if (!found) throw apiError(404, 'provider_not_found')
    return found
  }

  app.get(
    '/oidc/:name/start',
    {
      schema: {
        'x-permission': 'public',
        summary: 'Start a sign-in at a provider (the login page’s “Entrar com …” button)',
        description:
          'Public; a plain link the browser follows. 302 to the provider’s authorization endpoint (authorization code flow with PKCE S256, state and nonce), with the pending sign-in sealed in an HttpOnly cookie for the callback. `redirect`: where to land afterwards (an inner path of the panel; anything else is dropped). A provider that cannot be reached: 302 back to `/#/login?sso_error=provider_unreachable`. 404 provider_not_found for a name not in AUTH_PROVIDERS.',
        params: ProviderParamsSchema,
        querystring: ProviderStartQuerySchema,
        response: { 302: NoContentSchema, ...errorAnswers(400, 404, 429) },
      },
    },
    async (request, reply) => {
      const { provider, signIn } = configured(request.params.name)
      const started = await signIn.start(startRedirectTarget(request.query.redirect))
      reply.header('cache-control', 'no-store')
      if (started.outcome === 'provider_unreachable') {
        await recordAccountEvent(context.db, 'sign_in_failed', undefined, requestOrigin(request), {
          method: 'provider',
          provider: provider.name,
          reason: 'provider_unreachable',
        })
        return reply.redirect(loginPage({ [SSO_ERROR_PARAM]: 'provider_unreachable' }), 302)
      }
      const { cookie: pending } = started
      reply.setCookie(pending.name, pending.value, {
        path: pending.path,
        maxAge: pending.maxAgeSeconds,
        httpOnly: true,
        // The provider's redirect back is a cross-site top-level navigation: Lax lets it through.
        sameSite: 'lax',
        secure,
      })
      return reply.redirect(started.url.href, 302)
    },
  )

  app.get(
    '/oidc/:name/callback',
    {
      schema: {
        'x-permission': 'public',
        summary: 'The provider sends the browser back here (the redirect URI)',
        description:
          'Public; registered at the provider as `${PUBLIC_URL}/api/auth/oidc/<name>/callback`. Reads the authorization response (`code`, `state`, `iss`, or `error`) against the pending sign-in’s cookie, redeems the code and validates the ID token, finds or links or creates the account, then 302 to `/#/login?sso=<code>`: a single-use hand-off code, valid 60 seconds, that the login page exchanges with POST /api/auth/oidc/exchange (the session token never travels in a URL). Any refusal: 302 to `/#/login?sso_error=<reason>`. 404 provider_not_found for a name not in AUTH_PROVIDERS.',
        params: ProviderParamsSchema,
        response: { 302: NoContentSchema, ...errorAnswers(400, 404, 429) },
      },
    },
    async (request, reply) => {
      const { provider, signIn } = configured(request.params.name)
      const url = request.raw.url ?? ''
      const rawQuery = url.includes('?') ? url.slice(url.indexOf('?') + 1) : ''
      const cookieName = signIn.pendingCookieName(rawQuery)
      const pendingCookie = cookieName === null ? undefined : request.cookies[cookieName]
      if (cookieName !== null) {
        // Single use: whatever comes of it, this pending sign-in is over.
        reply.clearCookie(cookieName, {
          path: `/api/auth/oidc/${provider.name}/callback`,
          httpOnly: true,
          sameSite: 'lax',
          secure,
        })
      }
      const outcome = await finishCallback(
        context,
        provider,
        signIn,
        handOffs,
        rawQuery,
        pendingCookie,
        checkOrigin(request),
      )
      reply.header('cache-control', 'no-store')
      if (outcome.outcome === 'refused') {
        return reply.redirect(loginPage({ [SSO_ERROR_PARAM]: outcome.error }), 302)
      }
      if (outcome.outcome === 'link_required') {
        reply.setCookie(PENDING_LINK_COOKIE, outcome.pendingLink, {
          path: PENDING_LINK_COOKIE_PATH,
          maxAge: PENDING_LINK_TTL_SECONDS,
          httpOnly: true,
          // Only the login page's own calls (same site) send it back.
          sameSite: 'strict',
          secure,
        })
        return reply.redirect(
          loginPage({
            [SSO_ERROR_PARAM]: 'link_required',
            ...(outcome.redirectTarget === null ? {} : { redirect: outcome.redirectTarget }),
          }),
          302,
        )
      }
      return reply.redirect(
        loginPage({
          [SSO_CODE_PARAM]: outcome.code,
          ...(outcome.redirectTarget === null ? {} : { redirect: outcome.redirectTarget }),
        }),
        302,
      )
    },
  )

  app.post(
    '/oidc/exchange',
    {
      schema: {
        'x-permission': 'public',
        summary: 'Exchange a provider’s hand-off code for the session',
        description:
          'Public. The code the callback put in the login page’s address, once, within 60 seconds. The same answers as POST /api/auth/login: the session token and the account, or a second-factor challenge when the account has a factor of its own and the provider’s multi-factor is not trusted (AUTH_<NAME>_TRUST_MFA). 400 invalid_or_expired_code: unknown, used or expired. 403: the account waits for approval or was disabled since.',
        body: ProviderExchangeBodySchema,
        response: { 200: SignInAnswerSchema, ...errorAnswers(400, 403, 429) },
      },
    },
    async (request, reply) => {
      const result = await exchangeHandOff(
        context,
        handOffs,
        request.body.code,
        checkOrigin(request),
      )
      if (result.outcome === 'invalid_or_expired_code')
        throw apiError(400, 'invalid_or_expired_code')
      return answerSignIn(result, reply, secure)
    },
  )

  /**
   * The live admin's link of this token, with its account and provider: an account that can no
   * longer sign in, or a provider taken out of AUTH_PROVIDERS since, makes the link dead too.
   */
  const liveInvitation = async (token: string) => {
    const dead = () => apiError(400, 'invalid_or_expired_link_invitation')
    const hash = invitationHashOf(token)
    if (hash === undefined) throw dead()
    const invitation = await findLinkInvitation(context.db, hash, context.now())
    if (!invitation) throw dead()
    const account = await findAccountById(context.db, invitation.accountId)
    const configuredProvider = providers.get(invitation.provider)
    if (account?.status !== 'active' || !configuredProvider) throw dead()
    return { hash, invitation, account, ...configuredProvider }
  }

  app.post(
    '/oidc/link-invitation',
    {
      schema: {
        'x-permission': 'public',
        summary: 'Read an admin’s link to connect a provider (the link’s page)',
        description:
          'Public; the token of the link POST /api/staff/:id/provider-link-invitations mailed. Whose account and which provider, for the page to say before the person goes to the provider; nothing is used up. 400 invalid_or_expired_link_invitation: unknown, used, replaced by a newer link, expired, or the account can no longer sign in.',
        body: LinkInvitationTokenBodySchema,
        response: { 200: LinkInvitationSchema, ...errorAnswers(400, 429) },
      },
    },
    async (request, reply) => {
      const { invitation, account, provider } = await liveInvitation(request.body.token)
      reply.header('cache-control', 'no-store')
      return {
        name: account.name,
        email: account.email,
        provider: provider.name,
        label: providerLabel(provider.name, config.authProviders),
        expiresAt: invitation.expiresAt.toISOString(),
      }
    },
  )

  app.post(
    '/oidc/link-invitation/start',
    {
      schema: {
        'x-permission': 'public',
        summary: 'Start the sign-in at the provider an admin’s link is for',
        description:
          'Public; the link’s page calls it when the person presses the button (a JSON POST, so another site cannot start it in their browser). As GET /oidc/:name/start, with the link sealed into the pending sign-in’s cookie: at the callback the identity that comes back is linked to the link’s account even when the provider does not vouch for the e-mail, the link is used up with it, and the person is signed in as after any sign-in at a provider. Refused at the callback (`sso_error`): `invitation_expired`, `linked_elsewhere` (that identity is another account’s; the link stays usable), `account_disabled`, `domain_not_allowed`. 200 `{url}`: the provider’s page, for the browser to open. 400 invalid_or_expired_link_invitation; 503 provider_unreachable.',
        body: LinkInvitationTokenBodySchema,
        response: { 200: LinkInvitationStartSchema, ...errorAnswers(400, 429) },
      },
    },
    async (request, reply) => {
      const { hash, provider, signIn } = await liveInvitation(request.body.token)
      const started = await signIn.start(null, hash)
      reply.header('cache-control', 'no-store')
      if (started.outcome === 'provider_unreachable') {
        await recordAccountEvent(context.db, 'sign_in_failed', undefined, requestOrigin(request), {
          method: 'provider',
          provider: provider.name,
          reason: 'provider_unreachable',
        })
        throw apiError(503, 'provider_unreachable')
      }
      const { cookie: pending } = started
      reply.setCookie(pending.name, pending.value, {
        path: pending.path,
        maxAge: pending.maxAgeSeconds,
        httpOnly: true,
        // The provider's redirect back is a cross-site top-level navigation: Lax lets it through.
        sameSite: 'lax',
        secure,
      })
      return { url: started.url.href }
    },
  )

  /** A link's answer: as a sign-in's, or why the pending link cannot be finished. */
  const answerLink = (result: LinkResult, reply: FastifyReply) => {
    if (result.outcome === 'link_expired') throw apiError(400, 'link_expired')
    if (result.outcome === 'link_needs_code') throw apiError(409, 'link_needs_code')
    if (result.outcome === 'signed-in') {
      // Finished: the pending link is gone, and so is the browser's token for it.
      reply.clearCookie(PENDING_LINK_COOKIE, { path: PENDING_LINK_COOKIE_PATH })
    }
    return answerSignIn(result, reply, secure)
  }

  app.post(
    '/oidc/link',
    {
      schema: {
        'x-permission': 'public',
        summary: 'Link a provider by signing in once with the account’s password',
        description:
          'Public; after a callback answered `sso_error=link_required` (the provider claimed the e-mail of an account without vouching for it), with the HttpOnly cookie that callback set (10 minutes, this browser only). Only the account with that e-mail can be linked: its e-mail and password. Without a second factor: the link is made and audited, and the answer is the session, as POST /api/auth/login’s. With one: a challenge (TOTP or recovery code) to finish with POST /api/auth/oidc/link/mfa. 401 invalid_credentials: a wrong password or another account’s (counted like a failed sign-in; nothing linked); 400 link_expired: no pending link in this browser, expired or used; 409 link_needs_code: the account’s only second factor is a passkey. With PASSWORD_SIGN_IN=off only the first admin may.',
        body: SignInBodySchema,
        response: { 200: SignInAnswerSchema, ...errorAnswers(400, 401, 403, 409, 429) },
      },
      onRequest: async () => hashingQueue.refuseWhenFull(),
    },
    async (request, reply) =>
      answerLink(
        await linkWithPassword(
          context,
          request.cookies[PENDING_LINK_COOKIE],
          request.body.email,
          request.body.password,
          checkOrigin(request),
        ),
        reply,
      ),
  )

  app.post(
    '/oidc/link/mfa',
    {
      schema: {
        'x-permission': 'public',
        summary: 'Finish a link by password with the account’s second factor',
        description:
          'The challenge POST /api/auth/oidc/link answered and a TOTP or recovery code, from the same browser (its cookie). Then the link is made and audited and the session opened, as POST /api/auth/login/mfa answers. 401 invalid_code / challenge_expired; 400 link_expired: no pending link for this challenge in this browser.',
        body: MfaCodeBodySchema,
        response: { 200: SignedInWithCodeSchema, ...errorAnswers(400, 401, 403, 409, 429) },
      },
    },
    async (request, reply) =>
      answerLink(
        await linkWithCode(
          context,
          request.cookies[PENDING_LINK_COOKIE],
          request.body.challenge,
          request.body.code,
          checkOrigin(request),
        ),
        reply,
      ) as SignedInWithCode,
  )
})
