import { errorAnswers, NoContentSchema } from '../../../common/api/errors'
import { signsInWithPassword } from '../../accounts/password-sign-in-policy'
import {
  ProviderLinkListSchema,
  ProviderLinkParamsSchema,
} from '../../../common/api/provider-links'
import { bearer, guardedRoutes, signedIn } from '../../access/guarded-routes'
import { recordAccountEvent } from '../../audit-log/account-events'
import { providerLabel } from '../../config/auth-providers'
import { answerWithoutBody } from '../../http/answer-without-body'
import { apiError } from '../../http/errors'
import { requestOrigin } from '../../http/request-origin'
import { linksOf } from './provider-links'
import { hasOtherWayIn } from './sign-in-ways'

/**
 * Minha conta's sign-in providers, under /api/me: the person's links, and unlinking one while
 * another way in remains (a password, a passkey or another link), so nobody locks themselves out.
 */
export default guardedRoutes([signedIn], async (app, context) => {
  const { db, config } = context

  app.get(
    '/providers',
    {
      schema: {
        'x-permission': 'signed-in',
        summary: 'The sign-in providers linked to one’s account',
        description:
          'The providers (AUTH_PROVIDERS) this account signs in with, when each was linked and last used, and whether it may be unlinked (another way to sign in remains).',
        security: bearer,
        response: { 200: ProviderLinkListSchema, ...errorAnswers(401, 403) },
      },
    },
    async (request) => {
      const accountId = request.account!.id
      const links = await linksOf(db, accountId)
      const otherWay = await hasOtherWayIn(db, accountId)
      return {
        passwordSignIn: signsInWithPassword(config, request.account!),
        providers: links.map((link) => ({
          id: link.id,
          provider: link.provider,
          label: providerLabel(link.provider, config.authProviders),
          linkedAt: link.linkedAt.toISOString(),
          lastUsedAt: link.lastUsedAt?.toISOString() ?? null,
          unlinkable: otherWay || links.length > 1,
        })),
      }
    },
  )

  app.delete(
    '/providers/:id',
    {
      schema: {
        'x-permission': 'signed-in',
        summary: 'Unlink a sign-in provider from one’s account',
        description:
          '204: the provider no longer signs this account in (signing in there again links it anew only by a verified e-mail). 404 provider_link_not_found; 409 last_sign_in_method when no password, passkey or other provider would remain.',
        security: bearer,
        params: ProviderLinkParamsSchema,
        response: { 204: NoContentSchema, ...errorAnswers(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const accountId = request.account!.id
      const linkId = request.params.id.toLowerCase()
      await db.transaction().execute(async (trx) => {
        // A write to the account first: two unlinks at once (of its last two links) take turns
        // (a row lock on PostgreSQL, the one writer on SQLite), so the second sees the first's.
        await trx
          .updateTable('accounts')
          .set({ updated_at: new Date() })
          .where('id', '=', accountId)
          .execute()
        const links = await linksOf(trx, accountId)
        const link = links.find((candidate) => candidate.id === linkId)
        if (!link) throw apiError(404, 'provider_link_not_found')
        if (links.length === 1 && !(await hasOtherWayIn(trx, accountId))) {
          throw apiError(409, 'last_sign_in_method')
        }
        await trx.deleteFrom('provider_links').where('id', '=', link.id).execute()
        await recordAccountEvent(trx, 'provider_unlinked', accountId, requestOrigin(request), {
          provider: link.provider,
          by: 'owner',
        })
      })
      return answerWithoutBody(reply, 204)
    },
  )
})
