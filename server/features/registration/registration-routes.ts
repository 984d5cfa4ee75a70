import { OpenTeamsSchema, RegisterBodySchema, RegisteredSchema } from '../../../common/api/auth'
import { listOpenTeams } from '../../roles/team-store'
import { errorAnswers } from '../../../common/api/errors'
import { burstLimit, guardedRoutes } from '../../access/guarded-routes'
import { apiError } from '../../http/errors'
import { requestOrigin } from '../../http/request-origin'
import { register } from './register'
import { registrationNotifier } from './registration-notices'

/**
 * POST /api/auth/register (common/api/auth.ts): anyone asks for an account, counted by the burst
 * limit per address; the admins are told by mail (registration-notices.ts), at once and, for
 * what a burst brings after that mail, in one more mail a minute later.
 */
export default guardedRoutes([burstLimit], async (app, context) => {
  const notifyAdmins = registrationNotifier(context)
  const notices = setInterval(() => void notifyAdmins.run(), 60_000).unref()
  app.addHook('onClose', async () => {
    clearInterval(notices)
    await notifyAdmins.stop()
  })

  app.get(
    '/teams',
    {
      schema: {
        'x-permission': 'public',
        summary: 'The teams a registration may name (id and name only)',
        description:
          'Public: the teams the admins marked open, for the registration form’s list; a closed team is never named here.',
        response: { 200: OpenTeamsSchema, ...errorAnswers(429) },
      },
    },
    async () => ({ teams: await listOpenTeams(context.db) }),
  )

  app.post(
    '/register',
    {
      schema: {
        'x-permission': 'public',
        summary: 'Ask for an account (an admin approves it)',
        description:
          "Public. Asks for an account, which waits for an admin's approval; admins are told by mail. The answer is the same whether or not the e-mail already has an account, so it reveals none. The password must pass the password policy (400 with the reason). 403 registration_closed with PASSWORD_SIGN_IN=off (people come in through a sign-in provider).",
        body: RegisterBodySchema,
        response: { 202: RegisteredSchema, ...errorAnswers(400, 403, 429) },
      },
    },
    async (request, reply) => {
      // PASSWORD_SIGN_IN=off: people come in through a sign-in provider, not with a password.
      if (!context.config.passwordSignIn) throw apiError(403, 'registration_closed')
      await register(context, request.body, requestOrigin(request), () => void notifyAdmins.run())
      return reply.code(202).send({ status: 'pending' })
    },
  )
})
