import type { ApiContext } from '../api/api-context'
import { recordAccountEvent } from '../audit-log/account-events'
import type { Account } from '../db/schema'
import { apiError, tooManyAttempts } from '../http/errors'
import type { Origin } from './check-origin'
import { limitKeysFor, requireOwnPassword } from './password-check'
import { useAuthenticatorCode } from '../accounts/second-factors'

/**
 * What a signed-in person gives to confirm a change of their own account that the session alone
 * may not make (common/api/own-confirmation.ts): their password, or a code of their
 * authenticator app or a recovery code.
 */
export type OwnConfirmation = { password: string } | { code: string }

/**
 * Nothing when the confirmation is right; else the answer thrown: 429 with Retry-After, 400
 * `wrong_password` or 400 `wrong_code`. A change of e-mail and a request for deletion.
 */
export async function requireOwnConfirmation(
  context: Pick<ApiContext, 'db' | 'limits' | 'now'>,
  account: Account,
  confirmation: OwnConfirmation,
  origin: Origin,
): Promise<void> {
  if ('password' in confirmation) {
    await requireOwnPassword(context, account, confirmation.password, origin)
    return
  }
  await requireOwnCode(context, account, confirmation.code, origin)
}

/**
 * A code in place of the password, counted exactly as the password is (password-check.ts's
 * checkOwnPassword): the same keys, counted before the check and cleared when right, a wrong one
 * logged as a failed sign-in during a confirmation, so a stolen session gets no more guesses
 * at six digits than at a password. The code is used as at sign-in (second-factors.ts): a TOTP
 * code's step is never accepted twice, a recovery code is used up, and the log's
 * `recovery_code_used` mails the owner how many are left (security-notices/).
 */
async function requireOwnCode(
  context: Pick<ApiContext, 'db' | 'limits' | 'now'>,
  account: Account,
  code: string,
  origin: Origin,
): Promise<void> {
  const { db, limits } = context
  const gate = await limits.gate(await limitKeysFor(db, account.email, account, origin))
  if (!gate.allowed) throw tooManyAttempts(gate.retryAfterSeconds)
  const used = await useAuthenticatorCode(db, account.id, code, context.now())
  if (!used.right) {
    await recordAccountEvent(db, 'sign_in_failed', account.id, origin.audit, {
      method: used.method,
      during: 'confirmation',
    })
    throw apiError(400, 'wrong_code')
  }
  await gate.attempt.succeeded()
  if (used.method === 'recovery_code') {
    await recordAccountEvent(db, 'recovery_code_used', account.id, origin.audit, {
      left: used.recoveryCodesLeft,
      during: 'confirmation',
    })
  }
}
