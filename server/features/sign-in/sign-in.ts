import { normalizeEmail } from '../../../common/account-rules'
import type { MfaMethod } from '../../../common/api/auth'
import { findAccountByEmail, findAccountById, setPasswordHash } from '../../accounts/accounts'
import {
  finishMfaChallenge,
  issueMfaChallenge,
  tryMfaChallenge,
} from '../../accounts/mfa-challenges'
import { checkPassword, limitKeysFor } from '../../accounts/password-check'
import { hashPassword, needsRehash } from '../../accounts/passwords'
import { mfaMethods, useRecoveryCode, useTotpCode } from '../../accounts/second-factors'
import { looksLikeTotpCode } from '../../accounts/totp'
import type { ApiContext } from '../../api/api-context'
import { completeSignIn, type SignInResult } from '../../accounts/complete-sign-in'
import { recordAccountEvent } from '../../audit-log/account-events'
import type { Origin } from '../../http/request-origin'

/**
 * Signing in with a password, and its second step with a TOTP or recovery code, independent of
 * HTTP (sign-in-routes.ts maps them to the API). Every answer that could reveal whether an e-mail
 * has an account costs the same and reads the same either way.
 */

export async function signIn(
  context: ApiContext,
  rawEmail: string,
  password: string,
  origin: Origin,
): Promise<SignInResult> {
  const { db, limits } = context
  const email = normalizeEmail(rawEmail)
  const account = await findAccountByEmail(db, email)
  const checked = await checkPassword(context, email, account, password, origin, 'caller-decides')
  if ('retryAfterSeconds' in checked) {
    return { outcome: 'too_many_attempts', retryAfterSeconds: checked.retryAfterSeconds }
  }
  // PASSWORD_SIGN_IN=off (docs/single-sign-on.md): only the first admin keeps a password, for
  // a provider's outage. Anyone else's right password is refused as a wrong one, after the same
  // check and count, so the answer does not tell which e-mails have accounts.
  const passwordAllowed =
    context.config.passwordSignIn ||
    (context.config.adminEmail !== null && email === normalizeEmail(context.config.adminEmail))
  if (!account || !checked.matches || !passwordAllowed) {
    await recordAccountEvent(
      db,
      'sign_in_failed',
      account?.id,
      origin.audit,
      account ? {} : { email },
    )
    if (account && (await limits.isLocked(email)))
      await recordAccountEvent(db, 'locked', account.id, origin.audit)
    return { outcome: 'invalid_credentials' }
  }
  const methods = await mfaMethods(db, account.id)
  // A right password is only the first of two steps: its own try is given back, but the
  // failures counted so far (second-factor codes among them) stay until a sign-in completes.
  // Clearing them here let one address guess 5 codes a minute, password, 5 codes, ...
  if (methods.length > 0 && account.status === 'active') await checked.attempt.abandoned()
  else await checked.attempt.succeeded()
  // Only someone who knows the password learns the account's status.
  if (account.status === 'pending') return { outcome: 'pending_approval' }
  if (account.status === 'disabled') return { outcome: 'account_disabled' }

  if (needsRehash(account.password_hash)) {
    await setPasswordHash(db, account.id, await hashPassword(password))
  }
  if (methods.length > 0) {
    return {
      outcome: 'mfa',
      challenge: await issueMfaChallenge(db, account.id, context.now()),
      methods,
    }
  }
  return completeSignIn(context, account, origin, 'password')
}

/**
 * The second step of a sign-in with a second factor: a TOTP code or a recovery code for the
 * challenge the password step gave. Each try counts against the challenge (5) and against the
 * same sign-in limits as a password, from the same device or address.
 */
export async function signInWithCode(
  context: ApiContext,
  challenge: string,
  code: string,
  origin: Origin,
): Promise<SignInResult> {
  const { db, limits } = context
  const now = context.now()
  const accountId = await tryMfaChallenge(db, challenge, now)
  const account = accountId === undefined ? undefined : await findAccountById(db, accountId)
  if (!account) return { outcome: 'challenge_expired' }
  const gate = await limits.gate(await limitKeysFor(db, account.email, account, origin))
  if (!gate.allowed) {
    return { outcome: 'too_many_attempts', retryAfterSeconds: gate.retryAfterSeconds }
  }
  const typed = code.trim()
  const method: MfaMethod = looksLikeTotpCode(typed) ? 'totp' : 'recovery_code'
  let left: number | null = null
  const right =
    method === 'totp'
      ? await useTotpCode(db, account.id, typed, now)
      : (left = await useRecoveryCode(db, account.id, typed, now)) !== null
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
  const result = await completeSignIn(context, account, origin, method)
  return result.outcome === 'signed-in' && left !== null
    ? { ...result, recoveryCodesLeft: left }
    : result
}
