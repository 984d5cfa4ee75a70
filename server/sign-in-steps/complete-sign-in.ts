import type { MfaMethod } from '../../common/api/auth'
import type { AuditDetails } from '../../common/api/audit'
import type { ApiContext } from '../api/api-context'
import { recordAccountEvent } from '../audit-log/account-events'
import type { Account } from '../db/schema'
import type { Origin } from './check-origin'
import type { SecondFactorCodeResult } from './second-factor-code'
import { createSession } from '../accounts/sessions'
import { isTrustedDevice, trustDevice } from '../accounts/trusted-devices'

/**
 * How every way of signing in ends (a password and its second step, a passkey, a sign-in
 * provider's hand-off): the outcomes the routes answer (answer-sign-in.ts), and the session
 * opened for a sign-in that is complete.
 */

export type SignInResult =
  | {
      outcome: 'signed-in'
      token: string
      account: Account
      deviceToken: string
      /** After a recovery code: how many the account has left (the person is told). */
      recoveryCodesLeft?: number
    }
  | { outcome: 'mfa'; challenge: string; methods: MfaMethod[] }
  | {
      outcome:
        | 'invalid_credentials'
        | 'pending_approval'
        | 'account_disabled'
        | 'invalid_code'
        | 'challenge_expired'
    }
  | { outcome: 'too_many_attempts'; retryAfterSeconds: number }

/**
 * Opens the session of a sign-in that is complete: device trusted, audited with the method.
 * `provider`: signed in at that sign-in provider (AUTH_PROVIDERS' name); `providerMfa`: with a
 * multi-factor sign-in there that TRUST_MFA trusts, which satisfies MFA_REQUIRED for this
 * session only.
 */
export async function completeSignIn(
  { db, now, config }: Pick<ApiContext, 'db' | 'now' | 'config'>,
  account: Account,
  origin: Origin,
  method: 'password' | MfaMethod | { provider: string; providerMfa: boolean },
): Promise<SignInResult> {
  const providerMfa = typeof method === 'object' && method.providerMfa
  const token = await createSession(
    db,
    account.id,
    config.sessionTtlSeconds,
    now(),
    origin.audit ?? { ip: null, userAgent: null },
    providerMfa,
  )
  const newBrowser = await isNewBrowser(db, account.id, origin.deviceToken)
  const deviceToken = await trustDevice(db, account.id, origin.deviceToken)
  const details: AuditDetails =
    typeof method === 'object'
      ? { method: 'provider', provider: method.provider, provider_mfa: providerMfa }
      : { method }
  // The owner is told of it (security-notices/security-notice-kinds.ts).
  if (newBrowser) details.new_browser = true
  await recordAccountEvent(db, 'sign_in', account.id, origin.audit, details)
  return { outcome: 'signed-in', token, account, deviceToken }
}

/**
 * Opens the session once a second-factor code passed (second-factor-code.ts); after a recovery
 * code, the answer says how many are left.
 */
export async function completeCodeSignIn(
  context: Pick<ApiContext, 'db' | 'now' | 'config'>,
  checked: Extract<SecondFactorCodeResult, { outcome: 'passed' }>,
  origin: Origin,
): Promise<SignInResult> {
  const result = await completeSignIn(context, checked.account, origin, checked.method)
  return result.outcome === 'signed-in' && checked.recoveryCodesLeft !== null
    ? { ...result, recoveryCodesLeft: checked.recoveryCodesLeft }
    : result
}

/**
 * A browser that brings no device cookie of this account (trusted-devices.ts), to an account
 * that has signed in before: a first sign-in (an invitation taken up, an approval) is the person
 * arriving, not someone new arriving at their account. "Signed in before" is the account's own
 * last_sign_in_at (audit-log/record-audit.ts keeps it), not the audit log's sign-in events:
 * AUDIT_RETENTION prunes those, and a dormant account, the very one a leaked password is tried
 * on, would no longer be told.
 */
async function isNewBrowser(
  db: Pick<ApiContext, 'db'>['db'],
  accountId: string,
  deviceToken: string | undefined,
): Promise<boolean> {
  if (deviceToken !== undefined && (await isTrustedDevice(db, deviceToken, accountId))) {
    return false
  }
  const account = await db
    .selectFrom('accounts')
    .select('last_sign_in_at')
    .where('id', '=', accountId)
    .executeTakeFirst()
  return account !== undefined && account.last_sign_in_at !== null
}
