import cookie from '@fastify/cookie'
import {
  ProviderExchangeBodySchema,
  ProviderParamsSchema,
  ProviderStartQuerySchema,
  SignInAnswerSchema,
} from '../../../common/api/auth'
import { errorAnswers, NoContentSchema } from '../../../common/api/errors'
import { SSO_CODE_PARAM, SSO_ERROR_PARAM } from '../../../common/provider-sign-in-errors'
import { answerSignIn } from '../../accounts/answer-sign-in'
import { burstLimit, guardedRoutes } from '../../access/guarded-routes'
import { recordAccountEvent } from '../../audit-log/account-events'
import { apiError } from '../../http/errors'
import { checkOrigin, requestOrigin } from '../../http/request-origin'
import { exchangeHandOff } from './exchange-hand-off'
import { DatabaseHandOffStore, HandOffCodes } from './hand-off-codes'
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
})
