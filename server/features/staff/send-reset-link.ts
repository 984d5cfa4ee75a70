import { party, recordAudit } from '../../audit-log/record-audit'
import { findAdministeredAccount, refuseOwnAccount } from '../../accounts/account-administration'
import { issuePasswordReset, RESET_TTL_SECONDS } from '../../accounts/password-resets'
import { apiError } from '../../http/errors'
import { tokenHash } from '../../accounts/tokens'
import { adminResetMail } from '../../mail/admin-mails'
import { LINK_TOKEN_MARK } from '../../mail/outbox'
import type { ApiContext } from '../../api/api-context'
import type { Acting } from '../../access/acting'

/**
 * POST /staff/:id/password-reset: mails the person a reset link, as recovery does (30 minutes,
 * single use). The current password keeps working until the link is used. Only for active
 * accounts: a pending or disabled one could not sign in with the new password anyway.
 */
export async function sendResetLink(
  deps: ApiContext,
  { actor, origin, access }: Acting,
  id: string,
) {
  const accountId = refuseOwnAccount(actor, id)
  await deps.db.transaction().execute(async (trx) => {
    const account = await findAdministeredAccount(trx, accountId, access)
    if (account.status !== 'active') throw apiError(409, 'not_active')
    const token = await issuePasswordReset(trx, account.id)
    await recordAudit(trx, {
      type: 'reset_requested',
      actor: party(actor),
      account: party(account),
      origin,
      details: { by: 'admin' },
    })
    const link = `${deps.config.publicUrl}/#/recuperar-senha?token=${LINK_TOKEN_MARK}`
    const mail = adminResetMail(account.email, account.name, link, RESET_TTL_SECONDS / 60)
    await deps.outbox.queue(trx, 'admin_reset', mail, { tokenHash: tokenHash(token) })
  })
  deps.outbox.wake()
}
