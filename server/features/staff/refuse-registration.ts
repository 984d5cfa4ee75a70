import { party, recordAudit } from '../../audit-log/record-audit'
import { removePendingAccount } from '../../accounts/account-administration'
import { refusedMail } from '../../mail/admin-mails'
import type { ApiContext } from '../../api/api-context'
import type { Acting } from '../../access/acting'

/**
 * DELETE /staff/:id: a pending registration is refused and removed (its e-mail may register
 * again), through account-administration.ts (own account 400, 409 not_pending). The person is
 * told by mail, with the admin's reason when one is given. Only pending ones: an account that
 * was ever active keeps its history and is disabled instead.
 */
export async function refuseRegistration(
  deps: ApiContext,
  { actor, origin, access }: Acting,
  id: string,
  reason: string | undefined,
): Promise<void> {
  const trimmed = reason?.trim() || undefined
  await removePendingAccount(
    deps.db,
    actor,
    id,
    async (trx, account) => {
      await recordAudit(trx, {
        type: 'refused',
        actor: party(actor),
        account: party(account),
        origin,
        details: trimmed ? { reason: trimmed } : {},
      })
      await deps.outbox.queue(trx, 'refused', refusedMail(account.email, account.name, trimmed))
    },
    access,
  )
  deps.outbox.wake()
}
