import { MyActivitySchema } from '../../../common/api/dashboard'
import { errorAnswers } from '../../../common/api/errors'
import { bearer, guardedRoutes, signedIn } from '../../access/guarded-routes'
import { mfaStatus } from '../../accounts/second-factors'
import { signsInWithPassword } from '../../accounts/password-sign-in-policy'
import { openSessionsOf } from '../../accounts/sessions'
import { myActivity } from '../../audit-log/my-activity'

/**
 * GET /api/dashboard/me (common/api/dashboard.ts): what every signed-in person sees of their own
 * account, so staff get a dashboard of their own too: one request for all of Início's own part
 * (a cold #/dashboard makes no more requests for it).
 */
export default guardedRoutes([signedIn], async (app, { db, now, config }) => {
  app.get(
    '/me',
    {
      schema: {
        'x-permission': 'signed-in',
        summary: 'My sign-ins, failed attempts, open sessions and second factors',
        description:
          "The signed-in person's own figures: their previous sign-in and the failed attempts on their account since, their last five sign-ins, how many sessions are open, and their second factors (authenticator app, passkeys, recovery codes left).",
        security: bearer,
        response: { 200: MyActivitySchema, ...errorAnswers(401) },
      },
    },
    async (request) => {
      const accountId = request.account!.id
      const activity = await myActivity(db, accountId, request.sessionToken!)
      const sessions = await openSessionsOf(db, accountId, config.sessionIdleSeconds, now())
      return {
        ...activity,
        passwordSignIn: signsInWithPassword(config, request.account!),
        // This request's own session is open: at least 1, even at the edge of its idle end.
        openSessions: Math.max(1, sessions.length),
        secondFactors: await mfaStatus(db, accountId),
      }
    },
  )
})
