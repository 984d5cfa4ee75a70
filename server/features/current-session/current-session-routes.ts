import { MeAnswerSchema } from '../../../common/api/account'
import { errorAnswers, NoContentSchema } from '../../../common/api/errors'
import { publicUser } from '../../accounts/accounts'
import { endSession } from '../../accounts/sessions'
import { bearer, guardedRoutes, signedIn } from '../../access/guarded-routes'
import { accessOf } from '../../access/operation-access'
import { recordAccountEvent } from '../../audit-log/account-events'
import { answerWithoutBody } from '../../http/answer-without-body'
import { requestOrigin } from '../../http/request-origin'

/**
 * The session a request comes with, under /api/auth (common/api/auth.ts): who is signed in, and
 * signing out. A signed-in person's calls.
 */
export default guardedRoutes([signedIn], async (app, { db }) => {
  app.post(
    '/logout',
    {
      schema: {
        'x-permission': 'signed-in',
        summary: 'End this session',
        description: 'Ends the session whose token is sent; the token stops working at once.',
        security: bearer,
        response: { 204: NoContentSchema, ...errorAnswers(400, 401) },
      },
    },
    async (request, reply) => {
      await endSession(db, request.sessionToken!)
      await recordAccountEvent(db, 'signed_out', request.account!.id, requestOrigin(request))
      return answerWithoutBody(reply, 204)
    },
  )

  app.get(
    '/me',
    {
      schema: {
        'x-permission': 'signed-in',
        summary: 'The signed-in account (and whether it must set up a second factor first)',
        description:
          'The account behind the token sent, with `access` (its role, the role’s permissions and scope, its team: what the panel shows it), and with `mfaSetupRequired: true` when MFA_REQUIRED asks this person to set up a second factor before anything else. 401 when the token is unknown, expired or ended.',
        security: bearer,
        response: { 200: MeAnswerSchema, ...errorAnswers(400, 401) },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store')
      const user = {
        ...publicUser(request.account!),
        access: await accessOf({ db }, request),
      }
      return {
        user: request.mfaSetupRequired ? { ...user, mfaSetupRequired: true as const } : user,
      }
    },
  )
})
