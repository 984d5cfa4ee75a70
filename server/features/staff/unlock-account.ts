import { party, recordAudit } from '../../audit-log/record-audit'
import { refuseOwnAccount, unlockAccount } from '../../accounts/account-administration'
import type { SignInLimits } from '../../accounts/sign-in-limits'
import type { Acting, StaffDeps } from './staff-context'

/**
 * POST /staff/:id/unlock: every sign-in wait of the account ends (account-administration.ts's
 * unlockAccount); it may sign in again. Recorded when it was locked: the log says what changed.
 */
export async function unlockStaffAccount(
  deps: StaffDeps,
  limits: SignInLimits,
  { actor, origin }: Acting,
  rawId: string,
): Promise<void> {
  const id = refuseOwnAccount(actor, rawId)
  const { account, wasLocked } = await unlockAccount(deps.db, limits, id)
  if (wasLocked) {
    await recordAudit(deps.db, {
      type: 'unlocked',
      actor: party(actor),
      account: party(account),
      origin,
    })
  }
}
