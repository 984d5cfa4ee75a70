import { party, recordAudit } from '../audit/record-audit'
import { apiError } from '../http/errors'
import { refusedMail } from '../mail/admin-mails'
import { refuseOwnAccount, targetAccount } from './admin-guard'
import { sendLater, type Acting, type StaffDeps } from './staff-context'

/**
 * DELETE /staff/:id: a pending registration is refused and removed (its e-mail may register
 * again). The person is told by mail, with the admin's reason when one is given. Only pending
 * ones: an account that was ever active keeps its history and is disabled instead.
 */
export async function refuseRegistration(
  deps: StaffDeps,
  { actor, origin }: Acting,
  id: string,
  reason: string | undefined,
): Promise<void> {
  refuseOwnAccount(actor, id)
  const trimmed = reason?.trim() || undefined
  const refused = await deps.db.transaction().execute(async (trx) => {
    const account = await targetAccount(trx, id)
    if (account.status !== 'pending') throw apiError(409, 'not_pending')
    await trx.deleteFrom('accounts').where('id', '=', account.id).execute()
    await recordAudit(trx, {
      type: 'refused',
      actor: party(actor),
      account: party(account),
      origin,
      details: trimmed ? { reason: trimmed } : {},
    })
    return account
  })
  sendLater(deps, refusedMail(refused.email, refused.name, trimmed), 'refused')
}
