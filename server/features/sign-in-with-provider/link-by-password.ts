import { emailAsTyped } from '../../../common/account-rules'
import { findAccountById } from '../../accounts/accounts'
import {
  completeCodeSignIn,
  completeSignIn,
  type SignInResult,
} from '../../sign-in-steps/complete-sign-in'
import { issueMfaChallenge } from '../../accounts/mfa-challenges'
import { passwordStep } from '../../sign-in-steps/password-step'
import { checkSecondFactorCode } from '../../sign-in-steps/second-factor-code'
import { tokenHash } from '../../accounts/tokens'
import type { ApiContext } from '../../api/api-context'
import { recordAccountEvent } from '../../audit-log/account-events'
import type { Origin } from '../../sign-in-steps/check-origin'
import { bindChallenge, findPendingLink, takePendingLink } from './pending-links'
import { addLink, findLink } from './provider-links'

/**
 * Linking a provider by the account's password (docs/single-sign-on.md, "Linking by password"):
 * the provider claimed an e-mail that has an account without vouching for it (`link_required`),
 * so the person signs in once with that account's password, and its second factor if it has
 * one; then the link is made, audited, and the session opened, in that order.
 *
 * The link is made only to the account whose e-mail the provider claimed (kept with the pending
 * link): another account's e-mail and password are refused like a wrong password, counted the
 * same, and link nothing. Signing someone into an account the provider never named would let a
 * provider identity be attached to any account whose password its holder knows, and would
 * confuse the person about which account they linked.
 */
export type LinkResult =
  | SignInResult
  | { outcome: 'link_expired' }
  /** The account's only second factor is a passkey, which this step does not take. */
  | { outcome: 'link_needs_code' }

export async function linkWithPassword(
  context: ApiContext,
  pendingToken: string | undefined,
  rawEmail: string,
  password: string,
  origin: Origin,
): Promise<LinkResult> {
  const { db } = context
  const pending = await findPendingLink(db, pendingToken, context.now())
  if (!pending || pendingToken === undefined) return { outcome: 'link_expired' }
  // A look-alike of the account's address is another address: it never equals claimed.email.
  const email = emailAsTyped(rawEmail)
  const claimed = await findAccountById(db, pending.accountId)
  // Another e-mail is checked against the decoy, like an unknown one: the same time, the same answer.
  const named = claimed?.email === email ? claimed : undefined
  const step = await passwordStep(context, email, named, password, origin, {
    accountId: claimed?.id,
    details: { method: 'password', during: 'provider_link', provider: pending.provider },
  })
  if (step.outcome !== 'passed') return step
  const { account, methods } = step
  if (methods.length > 0) {
    const codes = methods.filter((method) => method !== 'passkey')
    if (codes.length === 0) return { outcome: 'link_needs_code' }
    const challenge = await issueMfaChallenge(db, account.id, context.now())
    if (!(await bindChallenge(db, pendingToken, challenge, context.now()))) {
      return { outcome: 'link_expired' }
    }
    return { outcome: 'mfa', challenge, methods: codes }
  }
  if (!(await takeAndLink(context, pendingToken, null, origin))) return { outcome: 'link_expired' }
  return completeSignIn(context, account, origin, 'password')
}

/** The second step: a code for the challenge the right password opened for this link. */
export async function linkWithCode(
  context: ApiContext,
  pendingToken: string | undefined,
  challenge: string,
  code: string,
  origin: Origin,
): Promise<LinkResult> {
  const { db } = context
  const pending = await findPendingLink(db, pendingToken, context.now())
  if (!pending || pendingToken === undefined || pending.challengeHash !== tokenHash(challenge)) {
    return { outcome: 'link_expired' }
  }
  const checked = await checkSecondFactorCode(context, challenge, code, origin, async (id) =>
    id === pending.accountId ? findAccountById(db, id) : undefined,
  )
  if (checked.outcome !== 'passed') return checked
  if (!(await takeAndLink(context, pendingToken, challenge, origin))) {
    return { outcome: 'link_expired' }
  }
  return completeCodeSignIn(context, checked, origin)
}

/**
 * Takes the pending link (once: of two finishes at once, one gets it) and makes the link with its
 * audit event, in one transaction: a failed write (a full disk) leaves the pending link to try
 * again. False when it was taken or expired, or when the subject was linked meanwhile to another
 * account (a verified sign-in there); already linked to this one is fine.
 */
async function takeAndLink(
  { db, now }: Pick<ApiContext, 'db' | 'now'>,
  pendingToken: string,
  challenge: string | null,
  origin: Origin,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const pending = await takePendingLink(trx, pendingToken, challenge, now())
    if (!pending) return false
    const key = { provider: pending.provider, issuer: pending.issuer, subject: pending.subject }
    if (await addLink(trx, key, pending.accountId, now())) {
      await recordAccountEvent(trx, 'provider_linked', pending.accountId, origin.audit, {
        provider: pending.provider,
        by: 'password',
      })
      return true
    }
    return (await findLink(trx, key))?.accountId === pending.accountId
  })
}
