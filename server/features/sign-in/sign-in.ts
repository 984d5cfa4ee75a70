import { canonicalEmail, emailAsTyped } from '../../../common/account-rules'
import { findAccountByEmail, findAccountById, setPasswordHash } from '../../accounts/accounts'
import { issueMfaChallenge } from '../../accounts/mfa-challenges'
import { passwordStep } from '../../sign-in-steps/password-step'
import { hashPassword, needsRehash } from '../../accounts/passwords'
import { checkSecondFactorCode } from '../../sign-in-steps/second-factor-code'
import type { ApiContext } from '../../api/api-context'
import {
  completeCodeSignIn,
  completeSignIn,
  type SignInResult,
} from '../../sign-in-steps/complete-sign-in'
import type { Origin } from '../../sign-in-steps/check-origin'

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
  const { db } = context
  // An address that is not canonical (a look-alike of another, common/account-rules.ts) is
  // nobody's: checked against the decoy like an unknown one, never folded into an account's.
  const canonical = canonicalEmail(rawEmail)
  const known = canonical === null ? undefined : await findAccountByEmail(db, canonical)
  const email = canonical ?? emailAsTyped(rawEmail)
  const step = await passwordStep(context, email, known, password, origin, {
    accountId: known?.id,
    details: known ? {} : { email },
  })
  if (step.outcome !== 'passed') return step
  const { account, methods } = step
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
 * challenge the password step gave (sign-in-steps/second-factor-code.ts counts and checks it).
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
  return completeCodeSignIn(context, checked, origin)
}
