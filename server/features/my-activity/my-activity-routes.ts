import { MyActivitySchema } from '../../../common/api/dashboard'
import { errorAnswers } from '../../../common/api/errors'
import { guardedRoutes, signedIn } from '../../access/guarded-routes'
import { myActivity } from '../../audit-log/my-activity'

const bearer = [{ bearer: [] }]

/**
 * GET /api/dashboard/me (common/api/dashboard.ts): what every signed-in person sees of their own
 * account, so staff get a dashboard of their own too.
 */
export default guardedRoutes([signedIn], async (app, { db }) => {
  app.get(
    '/me',
    {
      schema: {
        summary: 'My last sign-in before this session, and failed attempts since',
        description:
          "The signed-in person's own figures: their previous sign-in and the failed attempts on their account since.",
        security: bearer,
        response: { 200: MyActivitySchema, ...errorAnswers(401) },
      },
    },
    async (request) => myActivity(db, request.account!.id, request.sessionToken!),
  )
})
