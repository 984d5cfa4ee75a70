import { party, recordAudit } from '../../audit-log/record-audit'
import { isOpenInvitation } from '../../accounts/accounts'
import { findAdministeredAccount } from '../../accounts/account-administration'
import { apiError } from '../../http/errors'
import { queueInvitation } from './invite-account'
import type { ApiContext } from '../../api/api-context'
import type { Acting } from '../../access/acting'

/**
 * POST /staff/:id/invitation: mails an invited person a new link (7 days again); the links mailed
 * before stop working. Only for an invitation not yet taken up: anyone else has a password of
 * their own, or is pending or disabled, and is refused 409 not_invited.
 */
export async function resendInvitation(
  deps: ApiContext,
  { actor, origin, access }: Acting,
  id: string,
) {
  await deps.db.transaction().execute(async (trx) => {
    const account = await findAdministeredAccount(trx, id, access)
    if (!isOpenInvitation(account)) {
      throw apiError(409, 'not_invited')
    }
    await queueInvitation(trx, deps, account, actor)
    await recordAudit(trx, {
      type: 'invitation_resent',
      actor: party(actor),
      account: party(account),
      origin,
    })
  })
  deps.outbox.wake()
}
