import { Type } from 'typebox'
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
export default guardedRoutes([signedIn], async (app, { db, sessionWatch }) => {
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

  app.get(
    '/session-events',
    {
      // Open for as long as the panel is (http/admission.ts's heldOpen), and no slide of the
      // idle end (the browser marks it X-Painel-Background; it is not the person's doing).
      config: { heldOpen: true },
      schema: {
        'x-permission': 'signed-in',
        summary: 'A stream that says when this session ends (server-sent events)',
        description:
          'Server-sent events (text/event-stream) that stay open while the panel is: an `ended` event, whose data is the error body the session’s next call would get as a 401 (`{"error":{"code","message"}}`), as soon as the session is ended anywhere (an admin, another device, a directory’s `active: false`, another replica); then the stream ends. Comment lines keep it alive. It also ends, without an event, after 15 minutes or when the server shuts down: open another. Send `X-Painel-Background: 1`, or the stream slides the idle end like a use. common/session-events.ts.',
        security: bearer,
        produces: ['text/event-stream'],
        response: {
          200: Type.String({ description: 'text/event-stream' }),
          ...errorAnswers(400, 401),
        },
      },
    },
    async (request, reply) => {
      return (
        reply
          .type('text/event-stream; charset=utf-8')
          // A proxy that buffers (nginx) would hold the events back.
          .header('x-accel-buffering', 'no')
          // Fastify destroys the stream when the answer closes (a browser that goes away): the
          // watch then lets it go.
          .send(sessionWatch.open(request.session!.id) as unknown as string)
      )
    },
  )
})
