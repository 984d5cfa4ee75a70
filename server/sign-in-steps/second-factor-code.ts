import type { MfaMethod } from '../../common/api/auth'
import type { ApiContext } from '../api/api-context'
import { recordAccountEvent } from '../audit-log/account-events'
import type { Account } from '../db/schema'
import type { Origin } from './check-origin'
import { finishMfaChallenge, tryMfaChallenge } from '../accounts/mfa-challenges'
import { limitKeysFor } from './password-check'
import { useAuthenticatorCode } from '../accounts/second-factors'

/**
 * The second step after a right password: a TOTP or recovery code for the challenge the password
 * step gave. Each try counts against the challenge (5) and against the same sign-in limits as a
 * password, from the same device or address. Shared by the password sign-in
 * (features/sign-in/sign-in.ts) and the link of a provider by password
 * (features/sign-in-with-provider/link-by-password.ts), which then open the session.
 */
export type SecondFactorCodeResult =
  | {
      outcome: 'passed'
      account: Account
      method: Extract<MfaMethod, 'totp' | 'recovery_code'>
      /** After a recovery code: how many the account has left. */
      recoveryCodesLeft: number | null
    }
  | { outcome: 'invalid_code' | 'challenge_expired' | 'account_disabled' }
  | { outcome: 'too_many_attempts'; retryAfterSeconds: number }

export async function checkSecondFactorCode(
  context: Pick<ApiContext, 'db' | 'limits' | 'now'>,
  challenge: string,
  code: string,
  origin: Origin,
  findAccount: (accountId: string) => Promise<Account | undefined>,
): Promise<SecondFactorCodeResult> {
  const { db, limits } = context
  const now = context.now()
  const accountId = await tryMfaChallenge(db, challenge, now)
  const account = accountId === undefined ? undefined : await findAccount(accountId)
  if (!account) return { outcome: 'challenge_expired' }
  const gate = await limits.gate(await limitKeysFor(db, account.email, account, origin))
  if (!gate.allowed) {
    return { outcome: 'too_many_attempts', retryAfterSeconds: gate.retryAfterSeconds }
  }
  const {
    method,
    right,
    recoveryCodesLeft: left,
  } = await useAuthenticatorCode(db, account.id, code, now)
  if (!right) {
    await recordAccountEvent(db, 'sign_in_failed', account.id, origin.audit, { method })
    if (await limits.isLocked(account.email))
      await recordAccountEvent(db, 'locked', account.id, origin.audit)
    return { outcome: 'invalid_code' }
  }
  await gate.attempt.succeeded()
  if (!(await finishMfaChallenge(db, challenge, now))) return { outcome: 'challenge_expired' }
  if (account.status !== 'active') return { outcome: 'account_disabled' }
  if (method === 'recovery_code') {
    await recordAccountEvent(db, 'recovery_code_used', account.id, origin.audit, { left })
  }
  return { outcome: 'passed', account, method, recoveryCodesLeft: left }
}
