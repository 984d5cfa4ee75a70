import { party, recordAudit } from '../../audit-log/record-audit'
import { refuseOwnAccount, unlockAccount } from '../../accounts/account-administration'
import type { ApiContext } from '../../api/api-context'
import type { Acting } from '../../access/acting'

/**
 * POST /staff/:id/unlock: every sign-in wait of the account ends (account-administration.ts's
 * unlockAccount); it may sign in again. Recorded when it was locked: the log says what changed.
 */
export async function unlockStaffAccount(
  deps: ApiContext,
  { actor, origin, access }: Acting,
  rawId: string,
): Promise<void> {
  const id = refuseOwnAccount(actor, rawId)
  const { account, wasLocked } = await unlockAccount(deps.db, deps.limits, id, access)
  if (wasLocked) {
    await recordAudit(deps.db, {
      type: 'unlocked',
      actor: party(actor),
      account: party(account),
      origin,
    })
  }
}
