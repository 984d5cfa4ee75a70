import { party, recordAudit } from '../audit/record-audit'
import { findAdministeredAccount, refuseOwnAccount } from '../auth/account-administration'
import { issuePasswordReset, RESET_TTL_SECONDS } from '../auth/password-resets'
import { apiError } from '../http/errors'
import { adminResetMail } from '../mail/admin-mails'
import { sendLater, type Acting, type StaffDeps } from './staff-context'

/**
 * POST /staff/:id/password-reset: mails the person a reset link, as recovery does (30 minutes,
 * single use). The current password keeps working until the link is used. Only for active
 * accounts: a pending or disabled one could not sign in with the new password anyway.
 */
export async function sendResetLink(deps: StaffDeps, { actor, origin }: Acting, id: string) {
  const accountId = refuseOwnAccount(actor, id)
  const { account, token } = await deps.db.transaction().execute(async (trx) => {
    const account = await findAdministeredAccount(trx, accountId)
    if (account.status !== 'active') throw apiError(409, 'not_active')
    const token = await issuePasswordReset(trx, account.id)
    await recordAudit(trx, {
      type: 'reset_requested',
      actor: party(actor),
      account: party(account),
      origin,
      details: { by: 'admin' },
    })
    return { account, token }
  })
  const link = `${deps.publicUrl}/#/recuperar-senha?token=${token}`
  sendLater(
    deps,
    adminResetMail(account.email, account.name, link, RESET_TTL_SECONDS / 60),
    'admin reset',
  )
}
