import { PASSWORD_PROBLEM_MESSAGES } from '../../../common/password-policy'
import { findAccountById, isOpenInvitation, setPasswordHash } from '../../accounts/accounts'
import { checkNewPassword, invalidInput } from '../../accounts/account-input'
import {
  passwordResetAccount,
  usePasswordReset,
  voidPasswordResets,
} from '../../accounts/password-resets'
import { passwordAllowedFor } from '../../accounts/password-sign-in-policy'
import { hashPassword, verifyPassword } from '../../accounts/passwords'
import { endAllSessions } from '../../accounts/sessions'
import { isWellFormedToken } from '../../accounts/tokens'
import type { ApiContext } from '../../api/api-context'
import { recordAccountEvent } from '../../audit-log/account-events'
import type { RequestOrigin } from '../../http/request-origin'
import { queuePasswordChangedMail } from '../../mail/password-changed'

/**
 * The e-mail of the account a mailed link would still set a password for, without using it up;
 * undefined for a malformed, unknown, used, replaced or expired token (all alike, so an answer
 * tells nothing about tokens that do not work).
 */
export async function usableResetLinkEmail(
  { db, config }: ApiContext,
  token: string,
): Promise<string | undefined> {
  if (!isWellFormedToken(token)) return undefined
  const accountId = await passwordResetAccount(db, token)
  const email = accountId === undefined ? undefined : (await findAccountById(db, accountId))?.email
  // PASSWORD_SIGN_IN=off: a link mailed before it was turned off sets nothing (reset below).
  return email !== undefined && passwordAllowedFor(config, email) ? email : undefined
}

/**
 * Sets a new password from a mailed token, ends every session of that account and voids its
 * other links. False when the token is unknown, used or expired.
 */
export async function resetPassword(
  context: ApiContext,
  token: string,
  password: string,
  origin: RequestOrigin | undefined,
): Promise<boolean> {
  const { db, outbox, limits, log } = context
  // What needs no account first: a short password is a 400 whatever the link.
  checkNewPassword(password, {})
  const pendingId = await passwordResetAccount(db, token)
  const pending = pendingId === undefined ? undefined : await findAccountById(db, pendingId)
  if (!pending || !passwordAllowedFor(context.config, pending.email)) return false
  checkNewPassword(password, { email: pending.email, name: pending.name })
  if (await verifyPassword(password, pending.password_hash)) {
    throw invalidInput(PASSWORD_PROBLEM_MESSAGES.same_as_current)
  }
  const passwordHash = await hashPassword(password)
  const done = await db.transaction().execute(async (trx) => {
    const id = await usePasswordReset(trx, token)
    if (id === undefined) return undefined
    // The first password of an invited person (read before it is set, which ends the
    // invitation): they had none, so "your password was changed" would be news about nothing.
    const before = await findAccountById(trx, id)
    const firstOfInvitation = before !== undefined && isOpenInvitation(before)
    await setPasswordHash(trx, id, passwordHash)
    await endAllSessions(trx, id, 'session_password_changed')
    await voidPasswordResets(trx, id)
    await recordAccountEvent(trx, 'password_reset', id, origin)
    if (!firstOfInvitation) await queuePasswordChangedMail(context, trx, pending, 'reset', origin)
    return { id, firstOfInvitation }
  })
  if (done === undefined) return false
  const accountId = done.id
  outbox.wake()
  // The owner of the mailbox proved who they are: waits from someone else's guesses end.
  await limits.unlock(pending.email)
  log.info({ accountId }, 'password reset; all sessions ended')
  return true
}
