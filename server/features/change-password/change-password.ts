import { setPasswordHash } from '../../accounts/accounts'
import { checkNewPassword } from '../../accounts/account-input'
import { checkPassword, type OwnPasswordResult } from '../../sign-in-steps/password-check'
import { voidPasswordResets } from '../../accounts/password-resets'
import { hashPassword } from '../../accounts/passwords'
import { endOtherSessions } from '../../accounts/sessions'
import type { ApiContext } from '../../api/api-context'
import { recordAccountEvent } from '../../audit-log/account-events'
import type { Account } from '../../db/schema'
import type { Origin } from '../../sign-in-steps/check-origin'
import { queuePasswordChangedMail } from '../../mail/password-changed'

/**
 * Changes one's own password, knowing the current one; every other session of the account
 * ends and its reset links are voided. A wrong current password counts like a failed sign-in,
 * so a stolen session cannot be used to guess the password.
 */
export async function changePassword(
  context: ApiContext,
  account: Account,
  passwords: { current: string; next: string },
  keepToken: string,
  origin: Origin,
): Promise<OwnPasswordResult> {
  const { current, next } = passwords
  checkNewPassword(next, { email: account.email, name: account.name, current })
  const checked = await checkPassword(context, account.email, account, current, origin)
  if ('retryAfterSeconds' in checked) {
    return { outcome: 'too_many_attempts', retryAfterSeconds: checked.retryAfterSeconds }
  }
  if (!checked.matches) return { outcome: 'wrong_password' }
  const passwordHash = await hashPassword(next)
  await context.db.transaction().execute(async (trx) => {
    await setPasswordHash(trx, account.id, passwordHash)
    await endOtherSessions(trx, account.id, keepToken, 'session_password_changed')
    await voidPasswordResets(trx, account.id)
    await recordAccountEvent(trx, 'password_changed', account.id, origin.audit)
    await queuePasswordChangedMail(context, trx, account, 'account', origin.audit)
  })
  context.outbox.wake()
  context.log.info({ accountId: account.id }, 'password changed; other sessions ended')
  return { outcome: 'changed' }
}
