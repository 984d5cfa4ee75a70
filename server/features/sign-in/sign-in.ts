import { normalizeEmail } from '../../../common/account-rules'
import { findAccountByEmail, findAccountById, setPasswordHash } from '../../accounts/accounts'
import { issueMfaChallenge } from '../../accounts/mfa-challenges'
import { checkPassword } from '../../accounts/password-check'
import { passwordAllowedFor } from '../../accounts/password-sign-in-policy'
import { hashPassword, needsRehash } from '../../accounts/passwords'
import { mfaMethods } from '../../accounts/second-factors'
import { checkSecondFactorCode } from '../../accounts/second-factor-code'
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
  const passwordAllowed = passwordAllowedFor(context.config, email)
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
 * challenge the password step gave (accounts/second-factor-code.ts counts and checks it).
 */
export async function signInWithCode(
  context: ApiContext,
  challenge: string,
  code: string,
  origin: Origin,
): Promise<SignInResult> {
  const checked = await checkSecondFactorCode(context, challenge, code, origin, (id) =>
    findAccountById(context.db, id),
  )
  if (checked.outcome !== 'passed') return checked
  const result = await completeSignIn(context, checked.account, origin, checked.method)
  return result.outcome === 'signed-in' && checked.recoveryCodesLeft !== null
    ? { ...result, recoveryCodesLeft: checked.recoveryCodesLeft }
    : result
}
