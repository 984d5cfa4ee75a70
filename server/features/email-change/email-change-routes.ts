import {
  EmailChangeAnswerSchema,
  EmailChangeBodySchema,
  EmailLinkBodySchema,
  AdminEmailChangeBodySchema,
} from '../../../common/api/email-change'
import { errorAnswers, NoContentSchema } from '../../../common/api/errors'
import { AccountIdParamsSchema } from '../../../common/api/staff'
import { bearer, burstLimit, guardedRoutes, signedIn } from '../../access/guarded-routes'
import { findAdministeredAccount } from '../../accounts/account-administration'
import { requireOwnConfirmation } from '../../sign-in-steps/own-confirmation'
import { answerWithoutBody } from '../../http/answer-without-body'
import { requestOrigin } from '../../http/request-origin'
import { requestEmailChange } from './request-email-change'
import { cancelEmailChange, confirmEmailChange } from './use-email-link'

/**
 * POST /api/me/email: the signed-in person asks, with their password or a code of their
 * authenticator app (common/api/email-change.ts).
 */
export const myEmailChangeRoutes = guardedRoutes([signedIn], async (app, context) => {
  app.post(
    '/email',
    {
      schema: {
        'x-permission': 'signed-in',
        summary: "Ask to change one's e-mail (confirmed from the new address)",
        description:
          'Checks the password, or instead a code of the authenticator app or a recovery code (used up; either counted like a failed sign-in when wrong: 400 wrong_password or wrong_code), then mails the new address a single-use link valid 24 hours and tells the old address at once, with a link to cancel. Until confirmed, the old e-mail stays and signs in. The answer is the same whether or not the new address has an account.',
        security: bearer,
        body: EmailChangeBodySchema,
        response: { 202: NoContentSchema, ...errorAnswers(400, 401, 429) },
      },
    },
    async (request, reply) => {
      const account = request.account!
      const origin = requestOrigin(request)
      const { email, ...confirmation } = request.body
      await requireOwnConfirmation(context, account, confirmation, {
        address: request.ip,
        audit: origin,
      })
      await requestEmailChange(context, account, email, { admin: null, origin })
      return answerWithoutBody(reply, 202)
    },
  )
})

/** The mailed links, under /api/auth: anyone holding one, counted by the burst limit. */
export const emailLinkRoutes = guardedRoutes([burstLimit], async (app, context) => {
  app.post(
    '/email/confirm',
    {
      schema: {
        'x-permission': 'public',
        summary: 'Confirm a new e-mail with its mailed link',
        description:
          "The new address's single-use link: the account's e-mail becomes it, reset links mailed to the old address stop working, and the change is audited.",
        body: EmailLinkBodySchema,
        response: { 200: EmailChangeAnswerSchema, ...errorAnswers(400, 429) },
      },
    },
    async (request) => ({
      email: await confirmEmailChange(context, request.body.token, requestOrigin(request)),
    }),
  )

  app.post(
    '/email/cancel',
    {
      schema: {
        'x-permission': 'public',
        summary: 'Cancel a waiting change of e-mail with the link mailed to the old address',
        description: 'Ends the waiting change: the new address’s link stops working. Audited.',
        body: EmailLinkBodySchema,
        response: { 204: NoContentSchema, ...errorAnswers(400, 429) },
      },
    },
    async (request, reply) => {
      await cancelEmailChange(context, request.body.token, requestOrigin(request))
      return answerWithoutBody(reply, 204)
    },
  )
})

/** POST /api/staff/:id/email: an admin asks for someone's change, which waits for the same link. */
export const staffEmailChangeRoutes = guardedRoutes([signedIn], async (app, context) => {
  app.post(
    '/:id/email',
    {
      schema: {
        'x-permission': 'staff.roles',
        summary: "Ask to change someone's e-mail (confirmed from the new address)",
        description:
          'Permission staff.roles, for the people the caller reaches (404 otherwise) whose role does not outrank theirs (403 outranked). The same confirmation as the person’s own change: the new address gets the link, the old one is told (naming the admin) with a link to cancel. The same answer whether or not the new address has an account.',
        security: bearer,
        params: AccountIdParamsSchema,
        body: AdminEmailChangeBodySchema,
        response: { 202: NoContentSchema, ...errorAnswers(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const account = await findAdministeredAccount(context.db, request.params.id, request.access)
      await requestEmailChange(context, account, request.body.email, {
        admin: request.account!,
        origin: requestOrigin(request),
      })
      return answerWithoutBody(reply, 202)
    },
  )
})
