import { party, recordAudit } from '../../audit-log/record-audit'
import { findAdministeredAccount, refuseOwnAccount } from '../../accounts/account-administration'
import { removeSecondFactors } from '../../accounts/second-factors'
import { signsInWithPassword } from '../../accounts/password-sign-in-policy'
import { secondFactorRemovedMail } from '../../mail/admin-mails'
import type { ApiContext } from '../../api/api-context'
import type { Acting } from '../../access/acting'

/**
 * DELETE /staff/:id/mfa: someone lost their phone. Their authenticator app, recovery codes and
 * passkeys go, so the password alone signs them in until they set a new one up; audited with
 * the admin who did it, and the person is told by mail (with the recovery link, should it not
 * have been asked for). Not one's own (that is "Minha conta", with the password).
 */
export async function removeAccountSecondFactors(
  deps: ApiContext,
  { actor, origin, access }: Acting,
  id: string,
): Promise<void> {
  const accountId = refuseOwnAccount(actor, id)
  await deps.db.transaction().execute(async (trx) => {
    const account = await findAdministeredAccount(trx, accountId, access)
    const removed = await removeSecondFactors(trx, account.id)
    if (removed.totp || removed.passkeys > 0) {
      await recordAudit(trx, {
        type: 'mfa_disabled',
        actor: party(actor),
        account: party(account),
        origin,
        details: { by: 'admin', totp: removed.totp, passkeys: removed.passkeys },
      })
      const recovery = signsInWithPassword(deps.config, account)
        ? `${deps.config.publicUrl}/#/recuperar-senha`
        : null
      const mail = secondFactorRemovedMail(account.email, account.name, actor.name, recovery)
      await deps.outbox.queue(trx, 'second_factor_removed', mail)
    }
  })
  deps.outbox.wake()
}
