import { party, recordAudit } from '../../audit-log/record-audit'
import { findAdministeredAccount, refuseOwnAccount } from '../../accounts/account-administration'
import { endAllSessions } from '../../accounts/sessions'
import type { ApiContext } from '../../api/api-context'
import type { Acting } from '../../access/acting'

/** POST /staff/:id/sign-out: every session of the account ends (a lost laptop, a shared browser). */
export async function endAccountSessions(
  deps: ApiContext,
  { actor, origin, access }: Acting,
  id: string,
) {
  const accountId = refuseOwnAccount(actor, id)
  await deps.db.transaction().execute(async (trx) => {
    const account = await findAdministeredAccount(trx, accountId, access)
    const ended = await endAllSessions(trx, account.id, 'session_revoked')
    // The log says what changed: none open, none ended, nothing to record.
    if (ended === 0) return
    await recordAudit(trx, {
      type: 'session_ended',
      actor: party(actor),
      account: party(account),
      origin,
      details: { sessions: ended, by: 'admin' },
    })
  })
}
