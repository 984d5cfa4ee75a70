import type { FastifyInstance } from 'fastify'
import type { Db } from '../db/database'
import { HttpError } from '../http/errors'
import { listAccounts, publicUser } from '../auth/accounts'
import type { AuthService } from '../auth/auth-service'
import { requireAdmin, requireSession } from '../auth/authenticate'

/** Admins look after the staff accounts: approve a registration, disable or re-enable someone. */
export default async function staffRoutes(
  app: FastifyInstance,
  { auth, db }: { auth: AuthService; db: Db },
) {
  app.addHook('preHandler', requireSession(auth))
  app.addHook('preHandler', requireAdmin)

  app.get('/', async (_request, reply) => {
    reply.header('cache-control', 'no-store')
    return { accounts: (await listAccounts(db)).map(publicUser) }
  })

  app.post<{ Params: { id: string }; Body: { status: 'active' | 'disabled' } }>(
    '/:id/status',
    {
      schema: {
        params: {
          type: 'object',
          properties: { id: { type: 'string', format: 'uuid' } },
          required: ['id'],
        },
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['status'],
          properties: { status: { type: 'string', enum: ['active', 'disabled'] } },
        },
      },
    },
    async (request) => {
      if (request.params.id === request.account!.id) {
        throw new HttpError(
          400,
          'own_account',
          'Você não pode mudar a situação da sua própria conta.',
        )
      }
      const account = await auth.changeStatus(request.params.id, request.body.status)
      if (!account) throw new HttpError(404, 'not_found', 'Conta não encontrada.')
      return { user: publicUser(account) }
    },
  )
}
