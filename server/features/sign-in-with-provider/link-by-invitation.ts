import { findAccountById, isOpenInvitation } from '../../accounts/accounts'
import type { ApiContext } from '../../api/api-context'
import { recordAccountEvent } from '../../audit-log/account-events'
import type { AuthProvider } from '../../config/auth-providers'
import type { RequestOrigin } from '../../http/request-origin'
import { endInvitation } from './account-for-identity'
import { takeLinkInvitation } from './link-invitations'
import { addLink, findLink } from './provider-links'
import type { ProviderIdentity } from './provider-identity'

/**
 * The callback of a sign-in started from an admin's link (docs/single-sign-on.md, "An admin's
 * link"): the identity that came back is linked to the link's account, even when the provider
 * does not vouch for its e-mail. The admin chose the account and the mailbox proved the person;
 * the provider's e-mail claim plays no part, so it need not even be the account's. Still refused:
 * an identity linked to another account already (one identity, one account), an account that
 * cannot sign in (disabled, anonymised), and, before this runs, an e-mail ALLOWED_DOMAINS refuses
 * (provider-sign-in.ts). ALLOWED_DOMAINS counts only an e-mail the provider vouches for.
 *
 * In one transaction: the invitation is taken (a DELETE, so of two callbacks one gets it), the
 * link made and audited (its security notice goes to the person: security-notices/), and an
 * open invitation to Painel ended as at any first sign-in at a provider. A refusal rolls it all
 * back, so the person may open the link again and sign in at the provider with the right account.
 */
export type InvitationLinkOutcome =
  | { outcome: 'linked'; accountId: string }
  | {
      outcome: 'refused'
      error: 'invitation_expired' | 'linked_elsewhere' | 'account_disabled'
      accountId?: string
    }

class Refused extends Error {
  constructor(readonly refusal: Extract<InvitationLinkOutcome, { outcome: 'refused' }>) {
    super(refusal.error)
  }
}

export async function linkByInvitation(
  { db, now }: Pick<ApiContext, 'db' | 'now'>,
  provider: AuthProvider,
  identity: ProviderIdentity,
  invitationHash: string,
  origin: RequestOrigin | undefined,
): Promise<InvitationLinkOutcome> {
  try {
    return await db.transaction().execute(async (trx) => {
      const at = now()
      const invitation = await takeLinkInvitation(trx, invitationHash, at)
      // Sealed with this provider's pending sign-in, so another provider's is a forgery.
      if (!invitation || invitation.provider !== provider.name) {
        throw new Refused({ outcome: 'refused', error: 'invitation_expired' })
      }
      const accountId = invitation.accountId
      const account = await findAccountById(trx, accountId)
      if (!account || account.status !== 'active') {
        throw new Refused({ outcome: 'refused', error: 'account_disabled', accountId })
      }
      const key = { provider: provider.name, issuer: identity.issuer, subject: identity.subject }
      const linked = await findLink(trx, key)
      if (linked && linked.accountId !== accountId) {
        throw new Refused({ outcome: 'refused', error: 'linked_elsewhere', accountId })
      }
      if (!linked) {
        // False when a concurrent sign-in linked this subject a moment ago (the unique key).
        if (!(await addLink(trx, key, accountId, at))) {
          throw new Refused({ outcome: 'refused', error: 'linked_elsewhere', accountId })
        }
        await recordAccountEvent(trx, 'provider_linked', accountId, origin, {
          provider: provider.name,
          by: 'admin_link',
        })
      }
      if (isOpenInvitation(account)) await endInvitation(trx, account)
      return { outcome: 'linked', accountId } as const
    })
  } catch (error) {
    if (error instanceof Refused) return error.refusal
    throw error
  }
}
