import cookie from '@fastify/cookie'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { NAME_MAX_LENGTH } from '../../common/name-rules'
import { PASSWORD_MAX_LENGTH } from '../../common/password-policy'
import { HttpError } from '../http/errors'
import { publicUser } from './accounts'
import type { AuthService, Origin } from './auth-service'
import { requireSession } from './authenticate'
import { refuseUnstorableText } from './storable-input'
import { isWellFormedToken } from './tokens'
import { DEVICE_COOKIE, DEVICE_TTL_SECONDS } from './trusted-devices'

/** The auth API of DESIGN.md, under /api/auth. Bodies are JSON, checked by schema. */

const email = { type: 'string', minLength: 1, maxLength: 320 } as const
/** Sign-in accepts any password up to a bound (old ones may predate today's rules). */
const anyPassword = { type: 'string', minLength: 1, maxLength: 1024 } as const
/** The rules of a new password (common/password-policy.ts) are the service's; this bounds the size. */
const newPassword = { type: 'string', minLength: 1, maxLength: PASSWORD_MAX_LENGTH * 4 } as const

const body = (properties: Record<string, object>) => ({
  type: 'object',
  additionalProperties: false,
  required: Object.keys(properties),
  properties,
})

/** "em 15 minutos": how long to wait, in words. */
export function waitInWords(seconds: number): string {
  const minutes = Math.max(1, Math.ceil(seconds / 60))
  return minutes === 1 ? '1 minuto' : `${minutes} minutos`
}

export function tooManyAttemptsMessage(seconds: number): string {
  return `Muitas tentativas. Tente novamente em ${waitInWords(seconds)}.`
}

function tooManyAttempts(seconds: number): HttpError {
  return new HttpError(429, 'too_many_attempts', tooManyAttemptsMessage(seconds), {
    'retry-after': String(seconds),
  })
}

/** The address and, when the browser has one, its device token (trusted-devices.ts). */
function originOf(request: FastifyRequest): Origin {
  const deviceToken = request.cookies[DEVICE_COOKIE]
  return {
    address: request.ip,
    ...(deviceToken !== undefined && isWellFormedToken(deviceToken) ? { deviceToken } : {}),
  }
}

export default async function authRoutes(
  app: FastifyInstance,
  {
    auth,
    requestsPerMinute,
    secureCookies,
  }: { auth: AuthService; requestsPerMinute: number; secureCookies: boolean },
) {
  await app.register(cookie)
  app.addHook('preValidation', refuseUnstorableText)

  /**
   * Per address, whatever the outcome: a burst limit in front of the slower checks. One limiter,
   * so one count for all the calls it guards: a limit in each route's config would give every
   * route a count of its own, and an address five times the requests AUTH_RATE_LIMIT says.
   */
  const burstLimit = app.rateLimit({ max: requestsPerMinute, timeWindow: 60_000 })
  const session = requireSession(auth)

  app.post<{ Body: { email: string; password: string } }>(
    '/login',
    { schema: { body: body({ email, password: anyPassword }) }, onRequest: burstLimit },
    async (request, reply) => {
      const result = await auth.signIn(request.body.email, request.body.password, originOf(request))
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
        case 'invalid_credentials':
          throw new HttpError(401, 'invalid_credentials', 'E-mail ou senha incorretos.')
        case 'pending_approval':
          throw new HttpError(
            403,
            'pending_approval',
            'Seu cadastro ainda aguarda a aprovação de um administrador.',
          )
        case 'account_disabled':
          throw new HttpError(
            403,
            'account_disabled',
            'Sua conta está desativada. Fale com um administrador.',
          )
        case 'too_many_attempts':
          throw tooManyAttempts(result.retryAfterSeconds)
      }
    },
  )

  app.post('/logout', { preHandler: session }, async (request, reply) => {
    if (request.sessionToken) await auth.signOut(request.sessionToken)
    return reply.code(204).send()
  })

  app.get('/me', { preHandler: session }, async (request, reply) => {
    reply.header('cache-control', 'no-store')
    return { user: publicUser(request.account!) }
  })

  app.post<{ Body: { name: string; email: string; password: string } }>(
    '/register',
    {
      schema: {
        body: body({
          name: { type: 'string', minLength: 1, maxLength: NAME_MAX_LENGTH * 4 },
          email,
          password: newPassword,
        }),
      },
      onRequest: burstLimit,
    },
    async (request, reply) => {
      await auth.register(request.body.name, request.body.email, request.body.password)
      return reply.code(202).send({ status: 'pending' })
    },
  )

  app.post<{ Body: { email: string } }>(
    '/password-recovery',
    { schema: { body: body({ email }) }, onRequest: burstLimit },
    async (request, reply) => {
      auth.requestPasswordRecovery(request.body.email)
      return reply.code(202).send()
    },
  )

  app.post<{ Body: { token: string; password: string } }>(
    '/password-reset',
    {
      schema: { body: body({ token: { type: 'string', maxLength: 64 }, password: newPassword }) },
      onRequest: burstLimit,
    },
    async (request, reply) => {
      if (
        !isWellFormedToken(request.body.token) ||
        !(await auth.resetPassword(request.body.token, request.body.password))
      ) {
        throw new HttpError(
          400,
          'invalid_or_expired_token',
          'Este link de redefinição é inválido, já foi usado ou expirou. Peça um novo.',
        )
      }
      return reply.code(204).send()
    },
  )

  /** Changing one's own password (Minha conta): needs the current one; ends every other session. */
  app.post<{ Body: { currentPassword: string; newPassword: string } }>(
    '/password',
    {
      preHandler: session,
      schema: { body: body({ currentPassword: anyPassword, newPassword }) },
      onRequest: burstLimit,
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
      if (result.outcome === 'wrong_password') {
        throw new HttpError(400, 'wrong_password', 'A senha atual não confere.')
      }
      return reply.code(204).send()
    },
  )
}
