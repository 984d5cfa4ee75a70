import {
  RecoveryBodySchema,
  ResetBodySchema,
  ResetCheckAnswerSchema,
  ResetCheckBodySchema,
} from '../../../common/api/auth'
import { errorAnswers, NoContentSchema } from '../../../common/api/errors'
import { isWellFormedToken } from '../../accounts/tokens'
import { burstLimit, guardedRoutes } from '../../access/guarded-routes'
import { answerWithoutBody } from '../../http/answer-without-body'
import { apiError } from '../../http/errors'
import { requestOrigin } from '../../http/request-origin'
import { composeRecoveryMails, requestPasswordRecovery } from './recover-password'
import { resetPassword, usableResetLinkEmail } from './reset-password'

/**
 * A forgotten password, under /api/auth (common/api/auth.ts): a mailed link, and setting a new
 * password with it. Anyone may call them, counted by the burst limit per address.
 */
export default guardedRoutes([burstLimit], async (app, context) => {
  composeRecoveryMails(context)

  app.post(
    '/password-recovery',
    {
      schema: {
        'x-permission': 'public',
        summary: 'Mail a password-reset link (the same answer whether or not the e-mail exists)',
        description:
          'Public. Mails a single-use reset link, valid 30 minutes, when the e-mail has an account. The answer is the same, in the same time, whether or not it has one. A newer link voids the older ones.',
        body: RecoveryBodySchema,
        response: { 202: NoContentSchema, ...errorAnswers(400, 429) },
      },
    },
    async (request, reply) => {
      await requestPasswordRecovery(context, request.body.email, requestOrigin(request))
      return answerWithoutBody(reply, 202)
    },
  )

  app.post(
    '/password-reset',
    {
      schema: {
        'x-permission': 'public',
        summary: 'Set a new password with a mailed link',
        description:
          'Public. Sets a new password with the token of a mailed link (a reset or an invitation). Every session of the account ends. 400 invalid_or_expired_token for a used, replaced or expired link.',
        body: ResetBodySchema,
        response: { 204: NoContentSchema, ...errorAnswers(400, 429) },
      },
    },
    async (request, reply) => {
      const { token, password } = request.body
      if (
        !isWellFormedToken(token) ||
        !(await resetPassword(context, token, password, requestOrigin(request)))
      ) {
        throw apiError(400, 'invalid_or_expired_token')
      }
      return answerWithoutBody(reply, 204)
    },
  )

  /**
   * Whether a mailed link can still set a password, without using it up, and for which account:
   * the page asks when it opens, so a used or fake link is said at once, and a live one says
   * whose password it sets. A POST, so the token stays out of URLs and logs. Its answers come
   * under the burst limit like every public call here, and a token is 256 random bits
   * (accounts/tokens.ts): the e-mail goes only to whoever holds a live link, who had it by mail.
   */
  app.post(
    '/password-reset/check',
    {
      schema: {
        'x-permission': 'public',
        summary: 'Check a password-reset link without using it',
        description:
          "Public. Says whether a mailed link's token still works, without using it, and the e-mail of the account it is for, so the page can say so before the person types a new password. 400 invalid_or_expired_token, the same for a malformed, unknown, used, replaced or expired token.",
        body: ResetCheckBodySchema,
        response: { 200: ResetCheckAnswerSchema, ...errorAnswers(400, 429) },
      },
    },
    async (request, reply) => {
      const email = await usableResetLinkEmail(context, request.body.token)
      if (email === undefined) throw apiError(400, 'invalid_or_expired_token')
      reply.header('cache-control', 'no-store')
      return { email }
    },
  )
})
