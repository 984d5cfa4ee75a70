import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply } from 'fastify'
import { isValidEmail } from '../../common/account-rules'
import { UserAnswerSchema } from '../../common/api/account'
import {
  ChangePasswordBodySchema,
  RecoveryBodySchema,
  RegisterBodySchema,
  RegisteredSchema,
  ResetBodySchema,
  SignedInSchema,
  SignInBodySchema,
} from '../../common/api/auth'
import { errorAnswers, NoContentSchema } from '../../common/api/errors'
import { requestOrigin } from '../audit/record-audit'
import { apiError, HttpError } from '../http/errors'
import { tooManyAttemptsMessage } from '../messages'
import { publicUser } from './accounts'
import type { AuthService } from './auth-service'
import { requireSession } from './authenticate'
import { isWellFormedToken } from './tokens'

/**
 * The sign-in API of DESIGN.md, under /api/auth. Each route's schema (common/api/auth.ts) is the
 * one source of its types: Fastify validates the body with it, the handler's types come from it
 * (the TypeBox type provider), and the answer is serialised through it, so only the fields it
 * lists can leave the server.
 */

function tooManyAttempts(reply: FastifyReply, seconds: number): HttpError {
  reply.header('retry-after', String(seconds))
  return new HttpError(429, 'too_many_attempts', tooManyAttemptsMessage(seconds))
}

/**
 * 202 and 204 carry no body. Through the untyped reply: the type provider would want the
 * schema's `null` as a payload, and a 202 with `null` would send the text "null".
 */
function answerWithoutBody(reply: FastifyReply, status: 202 | 204) {
  return reply.code(status).send()
}

function checkedEmail(value: string): string {
  if (!isValidEmail(value)) throw apiError(400, 'invalid_email', 'invalid_input')
  return value
}

const authRoutes: FastifyPluginAsyncTypebox<{
  auth: AuthService
  requestsPerMinute: number
}> = async (app, { auth, requestsPerMinute }) => {
  /**
   * Per address, whatever the outcome: a burst limit in front of the slower checks. One
   * limiter, so one count for all the calls it guards: a limit in each route's config would
   * give every route a count of its own, and an address five times what AUTH_RATE_LIMIT says.
   */
  const burstLimit = app.rateLimit({ max: requestsPerMinute, timeWindow: 60_000 })
  const session = requireSession(auth)
  const bearer = [{ bearer: [] }]

  app.post(
    '/login',
    {
      schema: {
        summary: 'Sign in with e-mail and password',
        body: SignInBodySchema,
        response: { 200: SignedInSchema, ...errorAnswers(400, 401, 403, 429) },
      },
      onRequest: burstLimit,
    },
    async (request, reply) => {
      const result = await auth.signIn(
        request.body.email,
        request.body.password,
        request.ip,
        requestOrigin(request),
      )
      switch (result.outcome) {
        case 'signed-in':
          reply.header('cache-control', 'no-store')
          return { token: result.token, user: publicUser(result.account) }
        case 'invalid_credentials':
        case 'pending_approval':
          throw apiError(result.outcome === 'invalid_credentials' ? 401 : 403, result.outcome)
        case 'account_disabled':
          throw apiError(403, 'account_disabled')
        case 'too_many_attempts':
          throw tooManyAttempts(reply, result.retryAfterSeconds)
      }
    },
  )

  app.post(
    '/logout',
    {
      schema: {
        summary: 'End this session',
        security: bearer,
        response: { 204: NoContentSchema, ...errorAnswers(401) },
      },
      preHandler: session,
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
        summary: 'The signed-in account',
        security: bearer,
        response: { 200: UserAnswerSchema, ...errorAnswers(401) },
      },
      preHandler: session,
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store')
      return { user: publicUser(request.account!) }
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
      if (request.body.name.trim() === '') throw apiError(400, 'missing_name', 'invalid_input')
      await auth.register(
        request.body.name,
        checkedEmail(request.body.email),
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
      await auth.requestPasswordRecovery(checkedEmail(request.body.email), requestOrigin(request))
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
      preHandler: session,
      onRequest: burstLimit,
    },
    async (request, reply) => {
      const changed = await auth.changePassword(
        request.account!,
        request.body.currentPassword,
        request.body.newPassword,
        request.sessionToken!,
        requestOrigin(request),
      )
      if (!changed) throw apiError(400, 'wrong_password')
      return answerWithoutBody(reply, 204)
    },
  )
}

export default authRoutes
