import type { FastifyInstance } from 'fastify'
import type { Db } from '../db/database'
import { HttpError } from '../http/errors'
import { isUsablePasswordReset } from './password-reset-check'
import { isWellFormedToken } from './tokens'

/**
 * `POST /api/auth/password-reset/check {token}`: 204 when the link can still set a password,
 * 400 invalid_or_expired_token otherwise (the same answer and words as POST /password-reset).
 * A POST, not a GET: the token stays out of URLs, logs and caches. A route of its own beside
 * auth-routes.ts, behind the same kind of per-address burst limit.
 */
export default async function passwordResetCheckRoute(
  app: FastifyInstance,
  { db, requestsPerMinute }: { db: Db; requestsPerMinute: number },
) {
  app.post<{ Body: { token: string } }>(
    '/password-reset/check',
    {
      onRequest: app.rateLimit({ max: requestsPerMinute, timeWindow: 60_000 }),
      schema: {
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['token'],
          properties: { token: { type: 'string', maxLength: 64 } },
        },
        response: {
          204: { type: 'null', description: 'The link can still set a new password.' },
          400: {
            type: 'object',
            required: ['error'],
            properties: {
              error: {
                type: 'object',
                required: ['code', 'message'],
                properties: { code: { type: 'string' }, message: { type: 'string' } },
              },
            },
          },
        },
      },
    },
    async (request, reply) => {
      const { token } = request.body
      if (!isWellFormedToken(token) || !(await isUsablePasswordReset(db, token))) {
        throw new HttpError(
          400,
          'invalid_or_expired_token',
          'Este link de redefinição é inválido, já foi usado ou expirou. Peça um novo.',
        )
      }
      reply.header('cache-control', 'no-store')
      return reply.code(204).send()
    },
  )
}
