import type { MfaMethod } from '../../common/api/auth'
import type { AuditDetails } from '../../common/api/audit'
import type { ApiContext } from '../api/api-context'
import { recordAccountEvent } from '../audit-log/account-events'
import type { Account } from '../db/schema'
import type { Origin } from './check-origin'
import { checkPassword } from './password-check'
import { passwordAllowedFor } from '../accounts/password-sign-in-policy'
import { mfaMethods } from '../accounts/second-factors'

export type PasswordStepResult =
  | { outcome: 'passed'; account: Account; methods: MfaMethod[] }
  | { outcome: 'invalid_credentials' | 'pending_approval' | 'account_disabled' }
  | { outcome: 'too_many_attempts'; retryAfterSeconds: number }

/**
 * The password step of a sign-in, shared by the password sign-in (features/sign-in/sign-in.ts)
 * and the link of a provider by password (features/sign-in-with-provider/link-by-password.ts):
 * the counted check, a refusal audited as a failed sign-in (`failed`: whom the event names, and
 * its details) with the lock it may bring, the try's count settled, then the account's status.
 * `account` undefined (no such e-mail, or not the one allowed) is checked against the decoy:
 * every answer before the status costs and reads the same whether or not the e-mail has one.
 */
export async function passwordStep(
  context: ApiContext,
  email: string,
  account: Account | undefined,
  password: string,
  origin: Origin,
  failed: { accountId: string | undefined; details: AuditDetails },
): Promise<PasswordStepResult> {
  const { db, limits } = context
  const checked = await checkPassword(context, email, account, password, origin, 'caller-decides')
  if ('retryAfterSeconds' in checked) {
    return { outcome: 'too_many_attempts', retryAfterSeconds: checked.retryAfterSeconds }
  }
  // PASSWORD_SIGN_IN=off (docs/single-sign-on.md): only the first admin keeps a password, for
  // a provider's outage. Anyone else's right password is refused as a wrong one, after the same
  // check and count, so the answer does not tell which e-mails have accounts.
  if (!account || !checked.matches || !passwordAllowedFor(context.config, email)) {
    await recordAccountEvent(db, 'sign_in_failed', failed.accountId, origin.audit, failed.details)
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
  return { outcome: 'passed', account, methods }
}
