import { errorAnswers, NoContentSchema } from '../../../common/api/errors'
import { ProviderLinkInvitationBodySchema } from '../../../common/api/provider-links'
import { AccountIdParamsSchema } from '../../../common/api/staff'
import { bearer, guardedRoutes, signedIn } from '../../access/guarded-routes'
import { answerWithoutBody } from '../../http/answer-without-body'
import { requestOrigin } from '../../http/request-origin'
import { sendLinkInvitation } from './send-link-invitation'

/**
 * POST /api/staff/:id/provider-link-invitations: an admin mails a person the link that connects a
 * provider to their account (send-link-invitation.ts); the link's page and its start are public
 * routes of sign-in-with-provider-routes.ts.
 */
export default guardedRoutes([signedIn], async (app, context) => {
  app.post(
    '/:id/provider-link-invitations',
    {
      schema: {
        'x-permission': 'staff.roles',
        summary: 'Mail someone a link to connect a sign-in provider to their account',
        description:
          'Permission staff.roles, for the people the caller reaches (404 otherwise) whose role does not outrank theirs (403 outranked). Mails the person’s own e-mail a single-use link, valid 24 hours, naming the admin and the provider; a newer link for the same person and provider replaces the older. Whoever opens it and signs in at that provider has that identity linked to this account, even when the provider does not vouch for the e-mail (docs/single-sign-on.md). 404 provider_not_found: not in AUTH_PROVIDERS; 409 provider_already_linked; 409 not_linkable: the account is not active.',
        security: bearer,
        params: AccountIdParamsSchema,
        body: ProviderLinkInvitationBodySchema,
        response: { 202: NoContentSchema, ...errorAnswers(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await sendLinkInvitation(context, request.params.id, request.body.provider, {
        admin: request.account!,
        access: request.access,
        origin: requestOrigin(request),
      })
      return answerWithoutBody(reply, 202)
    },
  )
})
