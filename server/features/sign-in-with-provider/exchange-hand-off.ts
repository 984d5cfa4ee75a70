import { findAccountById } from '../../accounts/accounts'
import { completeSignIn, type SignInResult } from '../../sign-in-steps/complete-sign-in'
import { issueMfaChallenge } from '../../accounts/mfa-challenges'
import { mfaMethods } from '../../accounts/second-factors'
import type { ApiContext } from '../../api/api-context'
import type { Origin } from '../../sign-in-steps/check-origin'
import type { HandOffCodes } from './hand-off-codes'

/**
 * The login page's POST of the hand-off code: the same answers as a password sign-in. A
 * multi-factor sign-in at a provider TRUST_MFA trusts is the second factor; otherwise an account
 * with a Painel factor gets the usual challenge, and one MFA_REQUIRED covers without a factor is
 * signed in and confined to setting one up (access/authenticate.ts), exactly as after a password.
 */
export async function exchangeHandOff(
  context: ApiContext,
  handOffs: HandOffCodes,
  code: string,
  origin: Origin,
): Promise<SignInResult | { outcome: 'invalid_or_expired_code' }> {
  const handOff = await handOffs.redeem(code)
  if (!handOff) return { outcome: 'invalid_or_expired_code' }
  const account = await findAccountById(context.db, handOff.accountId)
  if (!account) return { outcome: 'invalid_or_expired_code' }
  // Disabled in the minute since the callback: still refused.
  if (account.status === 'pending') return { outcome: 'pending_approval' }
  if (account.status === 'disabled') return { outcome: 'account_disabled' }
  const method = { provider: handOff.provider, providerMfa: handOff.providerMultiFactor }
  if (!handOff.providerMultiFactor) {
    const methods = await mfaMethods(context.db, account.id)
    if (methods.length > 0) {
      return {
        outcome: 'mfa',
        challenge: await issueMfaChallenge(context.db, account.id, context.now()),
        methods,
      }
    }
  }
  return completeSignIn(context, account, origin, method)
}
