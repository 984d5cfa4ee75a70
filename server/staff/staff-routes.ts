import type { FastifyInstance } from 'fastify'
import type { Db } from '../db/database'
import { changeAccount } from '../auth/account-administration'
import { listAccounts, publicUser } from '../auth/accounts'
import type { AuthService } from '../auth/auth-service'
import { requireAdmin, requireSession } from '../auth/authenticate'
import { refuseUnstorableText } from '../auth/storable-input'

/** Admins look after the staff accounts: approve a registration, disable or re-enable someone. */
export default async function staffRoutes(
  app: FastifyInstance,
  { auth, db }: { auth: AuthService; db: Db },
) {
  app.addHook('preValidation', refuseUnstorableText)
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
    // Own account, last admin and the id's spelling: account-administration.ts decides.
    async (request) => ({
      user: publicUser(
        await changeAccount(db, request.account!, request.params.id, {
          status: request.body.status,
        }),
      ),
    }),
  )
}
