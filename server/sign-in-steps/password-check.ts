import type { ApiContext } from '../api/api-context'
import { recordAccountEvent } from '../audit-log/account-events'
import type { Db } from '../db/database'
import type { Account } from '../db/schema'
import { apiError, tooManyAttempts } from '../http/errors'
import type { Origin } from './check-origin'
import { decoyHash, hashingQueue, verifyPassword } from '../accounts/passwords'
import { limitKeys, type Attempt, type LimitKey } from '../accounts/sign-in-limits'
import { tokenHash } from '../accounts/tokens'
import { isTrustedDevice } from '../accounts/trusted-devices'

/** A password asked again of a signed-in person, or changed knowing the current one. */
export type OwnPasswordResult =
  | { outcome: 'changed' | 'wrong_password' }
  | { outcome: 'too_many_attempts'; retryAfterSeconds: number }

/**
 * The keys a password check of this account from this origin counts against (a passkey's
 * signature counts against the same ones: features/sign-in/passkey-sign-in.ts).
 */
export async function limitKeysFor(
  db: Db,
  email: string,
  account: Account | undefined,
  origin: Origin,
): Promise<LimitKey[]> {
  if (
    account &&
    origin.deviceToken !== undefined &&
    (await isTrustedDevice(db, origin.deviceToken, account.id))
  ) {
    return [limitKeys.device(tokenHash(origin.deviceToken), email)]
  }
  return [
    limitKeys.accountAndAddress(email, origin.address),
    limitKeys.address(origin.address),
    limitKeys.account(email),
  ]
}

/**
 * Whether the password is the account's, counted before it is checked (sign-in-limits.ts).
 * Unknown e-mails are counted and checked against a decoy the same way, so neither the answer
 * nor its time tells whether an account exists.
 */
export async function checkPassword(
  { db, limits }: Pick<ApiContext, 'db' | 'limits'>,
  email: string,
  account: Account | undefined,
  password: string,
  origin: Origin,
  whenRight: 'clear' | 'caller-decides' = 'clear',
): Promise<{ matches: boolean; attempt: Attempt } | { retryAfterSeconds: number }> {
  // A check the hashing queue would refuse anyway is refused before any try is counted: six
  // writes for nothing, on the event loop, were most of a sign-in flood's cost.
  hashingQueue.refuseWhenFull()
  const gate = await limits.gate(await limitKeysFor(db, email, account, origin))
  if (!gate.allowed) return { retryAfterSeconds: gate.retryAfterSeconds }
  let matches: boolean
  try {
    matches = await verifyPassword(password, account?.password_hash ?? (await decoyHash()))
  } catch (error) {
    await gate.attempt.abandoned()
    throw error
  }
  if (account && matches && whenRight === 'clear') await gate.attempt.succeeded()
  return { matches: account !== undefined && matches, attempt: gate.attempt }
}

/**
 * The password of a signed-in person, asked again before a change that matters (turning the
 * second factor off, new recovery codes): counted like a failed sign-in when wrong, so a
 * stolen session cannot be used to guess it.
 */
export async function checkOwnPassword(
  context: Pick<ApiContext, 'db' | 'limits'>,
  account: Account,
  password: string,
  origin: Origin,
): Promise<OwnPasswordResult> {
  const checked = await checkPassword(context, account.email, account, password, origin)
  if ('retryAfterSeconds' in checked) {
    return { outcome: 'too_many_attempts', retryAfterSeconds: checked.retryAfterSeconds }
  }
  if (!checked.matches) {
    await recordAccountEvent(context.db, 'sign_in_failed', account.id, origin.audit, {
      method: 'password',
      during: 'confirmation',
    })
    return { outcome: 'wrong_password' }
  }
  return { outcome: 'changed' }
}

/**
 * checkOwnPassword as a route wants it: nothing when right, else the answer thrown (429 with
 * Retry-After, or 400 wrong_password). Turning the second factor off, new recovery codes, a
 * change of e-mail, a request for deletion.
 */
export async function requireOwnPassword(
  context: Pick<ApiContext, 'db' | 'limits'>,
  account: Account,
  password: string,
  origin: Origin,
): Promise<void> {
  const checked = await checkOwnPassword(context, account, password, origin)
  if (checked.outcome === 'too_many_attempts') throw tooManyAttempts(checked.retryAfterSeconds)
  if (checked.outcome === 'wrong_password') throw apiError(400, 'wrong_password')
}
