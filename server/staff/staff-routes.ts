import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { UserAnswerSchema } from '../../common/api/account'
import { errorAnswers } from '../../common/api/errors'
import {
  AccountIdParamsSchema,
  StaffListSchema,
  StatusChangeBodySchema,
} from '../../common/api/staff'
import { listAccounts, publicUser } from '../auth/accounts'
import type { AuthService } from '../auth/auth-service'
import { requireAdmin, requireSession } from '../auth/authenticate'
import type { Db } from '../db/database'
import { apiError } from '../http/errors'

const bearer = [{ bearer: [] }]

/** Admins look after the staff accounts: approve a registration, disable or re-enable someone. */
const staffRoutes: FastifyPluginAsyncTypebox<{ auth: AuthService; db: Db }> = async (
  app,
  { auth, db },
) => {
  app.addHook('preHandler', requireSession(auth))
  app.addHook('preHandler', requireAdmin)

  app.get(
    '/',
    {
      schema: {
        summary: 'Every staff account',
        security: bearer,
        response: { 200: StaffListSchema, ...errorAnswers(401, 403) },
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
        response: { 200: UserAnswerSchema, ...errorAnswers(400, 401, 403, 404) },
      },
    },
    async (request) => {
      if (request.params.id === request.account!.id) throw apiError(400, 'own_account')
      const account = await auth.changeStatus(request.params.id, request.body.status)
      if (!account) throw apiError(404, 'account_not_found', 'not_found')
      return { user: publicUser(account) }
    },
  )
}

export default staffRoutes
