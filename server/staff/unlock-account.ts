import { party, recordAudit } from '../audit/record-audit'
import { refuseOwnAccount, targetAccount } from './admin-guard'
import { clearLock } from './lock-state'
import type { Acting, StaffDeps } from './staff-context'

/** POST /staff/:id/unlock: the failed sign-ins of that account are forgotten; it may sign in again. */
export async function unlockAccount(deps: StaffDeps, { actor, origin }: Acting, id: string) {
  refuseOwnAccount(actor, id)
  await deps.db.transaction().execute(async (trx) => {
    const account = await targetAccount(trx, id)
    const wasLocked = await clearLock(trx, account.email)
    // Nothing to record when there was no lock: the log says what changed.
    if (wasLocked) {
      await recordAudit(trx, {
        type: 'unlocked',
        actor: party(actor),
        account: party(account),
        origin,
      })
    }
  })
}
