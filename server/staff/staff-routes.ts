import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { UserAnswerSchema } from '../../common/api/account'
import { errorAnswers } from '../../common/api/errors'
import {
  AccountIdParamsSchema,
  StaffListSchema,
  StatusChangeBodySchema,
} from '../../common/api/staff'
import { changeAccount } from '../auth/account-administration'
import { listAccounts, publicUser } from '../auth/accounts'
import type { AuthService } from '../auth/auth-service'
import { requireAdmin, requireSession } from '../auth/authenticate'
import { refuseUnstorableText } from '../auth/storable-input'
import type { Db } from '../db/database'

const bearer = [{ bearer: [] }]

/** Admins look after the staff accounts: approve a registration, disable or re-enable someone. */
const staffRoutes: FastifyPluginAsyncTypebox<{ auth: AuthService; db: Db }> = async (
  app,
  { auth, db },
) => {
  app.addHook('preValidation', refuseUnstorableText)
  app.addHook('preHandler', requireSession(auth))
  app.addHook('preHandler', requireAdmin)

  app.get(
    '/',
    {
      schema: {
        summary: 'Every staff account',
        security: bearer,
        response: { 200: StaffListSchema, ...errorAnswers(400, 401, 403) },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store')
      return { accounts: (await listAccounts(db)).map(publicUser) }
    },
  )

  app.post(
    '/:id/status',
    {
      schema: {
        summary: 'Approve, disable or re-enable an account',
        security: bearer,
        params: AccountIdParamsSchema,
        body: StatusChangeBodySchema,
        response: { 200: UserAnswerSchema, ...errorAnswers(400, 401, 403, 404, 409) },
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

export default staffRoutes
