import cookie from '@fastify/cookie'
import { ChangePasswordBodySchema } from '../../../common/api/auth'
import { errorAnswers, NoContentSchema } from '../../../common/api/errors'
import { bearer, burstLimit, guardedRoutes, signedIn } from '../../access/guarded-routes'
import { answerWithoutBody } from '../../http/answer-without-body'
import { apiError, tooManyAttempts } from '../../http/errors'
import { checkOrigin } from '../../sign-in-steps/check-origin'
import { passwordAllowedFor } from '../../accounts/password-sign-in-policy'
import { changePassword } from './change-password'

/**
 * POST /api/auth/password (common/api/auth.ts), from Minha conta: needs the current password;
 * every other session ends. The burst limit first (per address, no database), then the session:
 * both before the body is read, so a caller without a session gets 401 whatever they sent.
 * Under /api/auth, so the device cookie of sign-in counts the check like a sign-in's.
 */
export default guardedRoutes([burstLimit, signedIn], async (app, context) => {
  await app.register(cookie)

  app.post(
    '/password',
    {
      schema: {
        'x-permission': 'signed-in',
        summary: 'Change my password (the other sessions end)',
        description:
          "Changes the signed-in person's password; every other session of theirs ends. A wrong current password is 400 wrong_password and counts like a failed sign-in. 403 password_sign_in_off: PASSWORD_SIGN_IN=off and this is not the first admin (ADMIN_EMAIL), the only account that keeps a password.",
        security: bearer,
        body: ChangePasswordBodySchema,
        response: { 204: NoContentSchema, ...errorAnswers(400, 401, 403, 429) },
      },
    },
    async (request, reply) => {
      // PASSWORD_SIGN_IN=off (docs/single-sign-on.md): a password nobody may sign in with is
      // not set either.
      if (!passwordAllowedFor(context.config, request.account!.email)) {
        throw apiError(403, 'password_sign_in_off')
      }
      const result = await changePassword(
        context,
        request.account!,
        { current: request.body.currentPassword, next: request.body.newPassword },
        request.sessionToken!,
        checkOrigin(request),
      )
      if (result.outcome === 'too_many_attempts') throw tooManyAttempts(result.retryAfterSeconds)
      if (result.outcome === 'wrong_password') throw apiError(400, 'wrong_password')
      return answerWithoutBody(reply, 204)
    },
  )
})
