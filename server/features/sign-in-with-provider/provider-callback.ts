import type { ProviderSignInError } from '../../../common/provider-sign-in-errors'
import { limitKeysFor } from '../../sign-in-steps/password-check'
import { limitKeys } from '../../accounts/sign-in-limits'
import type { ApiContext } from '../../api/api-context'
import { recordAccountEvent } from '../../audit-log/account-events'
import type { AuthProvider } from '../../config/auth-providers'
import type { Origin } from '../../sign-in-steps/check-origin'
import { accountForIdentity } from './account-for-identity'
import type { HandOffCodes } from './hand-off-codes'
import { linkByInvitation } from './link-by-invitation'
import { putPendingLink } from './pending-links'
import type { ProviderIdentity } from './provider-identity'
import type { ProviderSignIn } from './provider-sign-in'

/**
 * The provider's callback, after the protocol (provider-sign-in.ts): the account
 * (account-for-identity.ts), its status, the sign-in limits, and a single-use hand-off code for
 * the login page to exchange for the session; a sign-in started from an admin's link links first
 * (link-by-invitation.ts). Every refusal is audited with its reason and
 * answered with a code the login page puts in words; the ID token and the subject never reach
 * the audit log (gov.br's subject is a CPF).
 */
export type CallbackOutcome =
  | { outcome: 'hand-off'; code: string; redirectTarget: string | null }
  | { outcome: 'refused'; error: ProviderSignInError }
  /** An account has the e-mail the provider did not vouch for: the token of its pending link. */
  | { outcome: 'link_required'; pendingLink: string; redirectTarget: string | null }

export async function finishCallback(
  context: ApiContext,
  provider: AuthProvider,
  signIn: ProviderSignIn,
  handOffs: HandOffCodes,
  rawQuery: string,
  pendingCookie: string | undefined,
  origin: Origin,
): Promise<CallbackOutcome> {
  const { db, log, limits } = context
  const refuse = async (error: ProviderSignInError, accountId?: string) => {
    await recordAccountEvent(db, 'sign_in_failed', accountId, origin.audit, {
      method: 'provider',
      provider: provider.name,
      reason: error,
    })
    return { outcome: 'refused', error } as const
  }
  const finished = await signIn.finish(rawQuery, pendingCookie)
  if (finished.outcome === 'refused') {
    log.info(
      { provider: provider.name, refusal: finished.refusal, detail: finished.detail },
      'sign-in at a provider refused',
    )
    return refuse(finished.refusal)
  }
  const { identity } = finished
  // Counted like a password against the account (or, with no account known, the address), so
  // a flood of callbacks cannot outrun the sign-in limits.
  const email = identity.email
  const gate = await limits.gate(
    email === null
      ? [limitKeys.address(origin.address)]
      : await limitKeysFor(db, email, undefined, origin),
  )
  if (!gate.allowed) return refuse('too_many_attempts')
  if (finished.invitation !== null) {
    // An admin's link: the identity is linked to its account first, then found by that link.
    const linked = await linkByInvitation(
      context,
      provider,
      identity,
      finished.invitation,
      origin.audit,
    )
    if (linked.outcome === 'refused') return refuse(linked.error, linked.accountId)
  }
  const found = await accountForIdentity(context, provider, identity, origin.audit)
  if (found.outcome === 'email_missing') return refuse('email_missing')
  if (found.outcome === 'link_required') {
    // Audited as a refusal (nothing is linked yet); the person may link with the password of
    // the account the provider named (link-by-password.ts).
    await refuse('link_required', found.account.id)
    const pendingLink = await putPendingLink(
      db,
      { accountId: found.account.id, ...identityKey(provider, identity) },
      context.now(),
    )
    return { outcome: 'link_required', pendingLink, redirectTarget: finished.redirectTarget }
  }
  const { account } = found
  if (account.status === 'pending') {
    // A new person waits like a registration: the admins' mail of new registrations lists every
    // pending account (features/registration/registration-notices.ts, run every minute).
    if (found.created) {
      log.info({ accountId: account.id, provider: provider.name }, 'new person pending approval')
      await gate.attempt.succeeded()
      return { outcome: 'refused', error: 'pending_approval' }
    }
    return refuse('pending_approval', account.id)
  }
  if (account.status === 'disabled') return refuse('account_disabled', account.id)
  await gate.attempt.succeeded()
  const code = await handOffs.issue({
    accountId: account.id,
    provider: provider.name,
    redirectTarget: finished.redirectTarget,
    providerMultiFactor: identity.multiFactor && provider.trustMfa,
  })
  return { outcome: 'hand-off', code, redirectTarget: finished.redirectTarget }
}

const identityKey = (provider: AuthProvider, identity: ProviderIdentity) => ({
  provider: provider.name,
  issuer: identity.issuer,
  subject: identity.subject,
})
