import cookie from '@fastify/cookie'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { MeAnswerSchema } from '../../../common/api/account'
import {
  ChangePasswordBodySchema,
  RecoveryBodySchema,
  RegisterBodySchema,
  MfaCodeBodySchema,
  RegisteredSchema,
  ResetBodySchema,
  ResetCheckBodySchema,
  SignedInSchema,
  SignInAnswerSchema,
  SignInBodySchema,
} from '../../../common/api/auth'
import { errorAnswers, NoContentSchema } from '../../../common/api/errors'
import { requestOrigin } from '../../audit-log/record-audit'
import { answerWithoutBody } from '../../http/answer-without-body'
import { apiError, tooManyAttempts } from '../../http/errors'
import passkeySignInRoutes from './passkey-sign-in-routes'
import { publicUser } from '../../accounts/accounts'
import type { AuthService, Origin, SignInResult } from './sign-in'
import { requireSession } from '../../access/authenticate'
import { hashingQueue } from '../../accounts/passwords'
import { refuseUnstorableText } from '../../http/storable-input'
import { isWellFormedToken } from '../../accounts/tokens'
import { DEVICE_COOKIE, DEVICE_TTL_SECONDS } from '../../accounts/trusted-devices'

/**
 * The sign-in API of docs/architecture.md, under /api/auth. Each route's schema (common/api/auth.ts) is the
 * one source of its types: Fastify validates the body with it, the handler's types come from it
 * (the TypeBox type provider), and the answer is serialised through it, so only the fields it
 * lists can leave the server.
 */

/** The address and, when the browser has one, its device token (trusted-devices.ts). */
function originOf(request: FastifyRequest): Origin {
  const deviceToken = request.cookies[DEVICE_COOKIE]
  return {
    address: request.ip,
    audit: requestOrigin(request),
    ...(deviceToken !== undefined && isWellFormedToken(deviceToken) ? { deviceToken } : {}),
  }
}

const authRoutes: FastifyPluginAsyncTypebox<{
  auth: AuthService
  requestsPerMinute: number
  secureCookies: boolean
}> = async (app, { auth, requestsPerMinute, secureCookies }) => {
  await app.register(cookie)
  app.addHook('preValidation', refuseUnstorableText)

  /**
   * Per address, whatever the outcome: a burst limit in front of the slower checks. One
   * limiter, so one count for all the calls it guards: a limit in each route's config would
   * give every route a count of its own, and an address five times what AUTH_RATE_LIMIT says.
   */
  const burstLimit = app.rateLimit({ max: requestsPerMinute, timeWindow: 60_000 })
  /**
   * A password check the hashing queue would refuse is refused before the sign-in limits write
   * their count (and then give it back): under a flood those writes, commits made on the event
   * loop for requests that were shed anyway, kept every other request waiting, /healthz too.
   */
  const refuseWhileHashingIsFull = async () => hashingQueue.refuseWhenFull()
  const session = requireSession(auth)
  const bearer = [{ bearer: [] }]

  /** Every way of signing in ends here: a session and the device cookie, or the refusal. */
  const answerSignIn = (result: SignInResult, reply: FastifyReply) => {
    switch (result.outcome) {
      case 'signed-in':
        reply.header('cache-control', 'no-store')
        reply.setCookie(DEVICE_COOKIE, result.deviceToken, {
          httpOnly: true,
          sameSite: 'strict',
          path: '/api/auth',
          secure: secureCookies,
          maxAge: DEVICE_TTL_SECONDS,
        })
        return { token: result.token, user: publicUser(result.account) }
      case 'mfa':
        reply.header('cache-control', 'no-store')
        return { mfa: { challenge: result.challenge, methods: result.methods } }
      case 'invalid_credentials':
      case 'invalid_code':
      case 'challenge_expired':
        throw apiError(401, result.outcome)
      case 'pending_approval':
      case 'account_disabled':
        throw apiError(403, result.outcome)
      case 'too_many_attempts':
        throw tooManyAttempts(result.retryAfterSeconds)
    }
  }

  app.post(
    '/login',
    {
      schema: {
        summary: 'Sign in with e-mail and password (or get a second-factor challenge)',
        body: SignInBodySchema,
        response: { 200: SignInAnswerSchema, ...errorAnswers(400, 401, 403, 429) },
      },
      onRequest: [burstLimit, refuseWhileHashingIsFull],
    },
    async (request, reply) =>
      answerSignIn(
        await auth.signIn(request.body.email, request.body.password, originOf(request)),
        reply,
      ),
  )

  app.post(
    '/login/mfa',
    {
      schema: {
        summary: "Finish a sign-in with a TOTP code or a recovery code for the login's challenge",
        description:
          '401 invalid_code: the code is wrong (the challenge allows 5); 401 challenge_expired: the challenge is unknown, used, older than 5 minutes or out of tries (sign in with the password again).',
        body: MfaCodeBodySchema,
        response: { 200: SignedInSchema, ...errorAnswers(400, 401, 403, 429) },
      },
      onRequest: burstLimit,
    },
    async (request, reply) =>
      answerSignIn(
        await auth.signInWithCode(request.body.challenge, request.body.code, originOf(request)),
        reply,
      ) as { token: string; user: ReturnType<typeof publicUser> },
  )

  await app.register(passkeySignInRoutes, { auth, burstLimit, originOf, answerSignIn })

  app.post(
    '/logout',
    {
      schema: {
        summary: 'End this session',
        security: bearer,
        response: { 204: NoContentSchema, ...errorAnswers(400, 401) },
      },
      onRequest: session,
    },
    async (request, reply) => {
      if (request.sessionToken) await auth.signOut(request.sessionToken, requestOrigin(request))
      return answerWithoutBody(reply, 204)
    },
  )

  app.get(
    '/me',
    {
      schema: {
        summary: 'The signed-in account (and whether it must set up a second factor first)',
        security: bearer,
        response: { 200: MeAnswerSchema, ...errorAnswers(400, 401) },
      },
      onRequest: session,
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store')
      const user = publicUser(request.account!)
      return {
        user: request.mfaSetupRequired ? { ...user, mfaSetupRequired: true as const } : user,
      }
    },
  )

  app.post(
    '/register',
    {
      schema: {
        summary: 'Ask for an account (an admin approves it)',
        body: RegisterBodySchema,
        response: { 202: RegisteredSchema, ...errorAnswers(400, 429) },
      },
      onRequest: burstLimit,
    },
    async (request, reply) => {
      await auth.register(
        request.body.name,
        request.body.email,
        request.body.password,
        requestOrigin(request),
      )
      return reply.code(202).send({ status: 'pending' })
    },
  )

  app.post(
    '/password-recovery',
    {
      schema: {
        summary: 'Mail a password-reset link (the same answer whether or not the e-mail exists)',
        body: RecoveryBodySchema,
        response: { 202: NoContentSchema, ...errorAnswers(400, 429) },
      },
      onRequest: burstLimit,
    },
    async (request, reply) => {
      await auth.requestPasswordRecovery(request.body.email, requestOrigin(request))
      return answerWithoutBody(reply, 202)
    },
  )

  app.post(
    '/password-reset',
    {
      schema: {
        summary: 'Set a new password with a mailed link',
        body: ResetBodySchema,
        response: { 204: NoContentSchema, ...errorAnswers(400, 429) },
      },
      onRequest: burstLimit,
    },
    async (request, reply) => {
      if (
        !isWellFormedToken(request.body.token) ||
        !(await auth.resetPassword(
          request.body.token,
          request.body.password,
          requestOrigin(request),
        ))
      ) {
        throw apiError(400, 'invalid_or_expired_token')
      }
      return answerWithoutBody(reply, 204)
    },
  )

  /**
   * Whether a mailed link can still set a password, without using it up: the page asks when it
   * opens, so a used or fake link is said at once. A POST, so the token stays out of URLs and logs.
   */
  app.post(
    '/password-reset/check',
    {
      schema: {
        summary: 'Check a password-reset link without using it',
        body: ResetCheckBodySchema,
        response: { 204: NoContentSchema, ...errorAnswers(400, 429) },
      },
      onRequest: burstLimit,
    },
    async (request, reply) => {
      if (!(await auth.isUsableResetLink(request.body.token))) {
        throw apiError(400, 'invalid_or_expired_token')
      }
      reply.header('cache-control', 'no-store')
      return answerWithoutBody(reply, 204)
    },
  )

  /** Changing one's own password (Minha conta): needs the current one; ends every other session. */
  app.post(
    '/password',
    {
      schema: {
        summary: 'Change my password (the other sessions end)',
        security: bearer,
        body: ChangePasswordBodySchema,
        response: { 204: NoContentSchema, ...errorAnswers(400, 401, 429) },
      },
      // The burst limit first (per address, no database), then the session: both before the
      // body is read, so a caller without a session gets 401 whatever they sent.
      onRequest: [burstLimit, session],
    },
    async (request, reply) => {
      const result = await auth.changePassword(
        request.account!,
        request.body.currentPassword,
        request.body.newPassword,
        request.sessionToken!,
        originOf(request),
      )
      if (result.outcome === 'too_many_attempts') throw tooManyAttempts(result.retryAfterSeconds)
      if (result.outcome === 'wrong_password') throw apiError(400, 'wrong_password')
      return answerWithoutBody(reply, 204)
    },
  )
}

export default authRoutes
