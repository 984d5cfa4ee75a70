import type { Access } from '../../../common/api/roles'
import { findAdministeredAccount } from '../../accounts/account-administration'
import type { ApiContext } from '../../api/api-context'
import { party, recordAudit } from '../../audit-log/record-audit'
import { providerLabel } from '../../config/auth-providers'
import type { Account } from '../../db/schema'
import { apiError } from '../../http/errors'
import type { RequestOrigin } from '../../http/request-origin'
import { LINK_TOKEN_MARK } from '../../mail/outbox'
import { linkInvitationMail } from './link-invitation-mail'
import { putLinkInvitation } from './link-invitations'

/** The page the mailed link opens (client/src/features/sign-in/, the link's page). */
export const LINK_INVITATION_PAGE = '#/vincular'

/**
 * An admin sends a person the link to connect a provider they are not linked to (issue 28: "or
 * an admin links"). The person must be one the admin reaches and does not outrank, like every
 * action on a person (accounts/account-administration.ts), and able to sign in: an active
 * account, an open invitation included (its first sign-in at the provider takes it up). In one
 * transaction: the invitation (in place of an earlier one for this provider), the mail to the
 * person's own address (never another: the mailbox is what proves the person), and the audit
 * event naming the admin.
 */
export async function sendLinkInvitation(
  context: Pick<ApiContext, 'db' | 'now' | 'outbox' | 'config'>,
  rawId: string,
  providerName: string,
  by: { admin: Account; access: Access | undefined; origin: RequestOrigin },
): Promise<void> {
  const { db, outbox, config } = context
  const account = await findAdministeredAccount(db, rawId, by.access)
  if (!config.authProviders.some((provider) => provider.name === providerName)) {
    throw apiError(404, 'provider_not_found')
  }
  if (account.status !== 'active') throw apiError(409, 'not_linkable')
  const linked = await db
    .selectFrom('provider_links')
    .select('id')
    .where('account_id', '=', account.id)
    .where('provider', '=', providerName)
    .executeTakeFirst()
  if (linked) throw apiError(409, 'provider_already_linked')
  const now = context.now()
  const label = providerLabel(providerName, config.authProviders)
  await db.transaction().execute(async (trx) => {
    const hash = await putLinkInvitation(
      trx,
      { accountId: account.id, provider: providerName, invitedBy: by.admin.id },
      now,
    )
    await outbox.queue(
      trx,
      'provider_link_invitation',
      linkInvitationMail(account.email, {
        name: account.name,
        admin: `${by.admin.name} (${by.admin.email})`,
        provider: label,
        link: `${config.publicUrl}/${LINK_INVITATION_PAGE}?token=${LINK_TOKEN_MARK}`,
      }),
      { tokenHash: hash },
    )
    await recordAudit(trx, {
      type: 'provider_link_invited',
      actor: party(by.admin),
      account: party(account),
      origin: by.origin,
      details: { provider: providerName },
      at: now,
    })
  })
  outbox.wake()
}
