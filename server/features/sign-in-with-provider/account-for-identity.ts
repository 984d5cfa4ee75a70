import { BUILT_IN_ROLE_IDS } from '../../../common/permissions'
import { roleColumns } from '../../roles/role-columns'
import { nameProblem, normalizeName } from '../../../common/name-rules'
import type { AuthProvider } from '../../config/auth-providers'
import type { ApiContext } from '../../api/api-context'
import { findAccountByEmail, findAccountById } from '../../accounts/accounts'
import { recordAccountEvent } from '../../audit-log/account-events'
import type { Db } from '../../db/database'
import type { Account } from '../../db/schema'
import type { RequestOrigin } from '../../http/request-origin'
import { addLink, findLink, touchLink } from './provider-links'
import type { ProviderIdentity } from './provider-identity'
import { nameColumns } from '../../accounts/name-columns'

/**
 * The Painel account of a person a provider identified (issue 28's linking rules,
 * docs/single-sign-on.md): the account already linked to (issuer, subject); else the account
 * with the e-mail, linked now, only when the provider vouches for the e-mail (an unverified
 * `email` claim is how the nOAuth takeover works); else a new account, pending an admin's
 * approval unless AUTO_APPROVE, with no password of its own, an admin when ADMIN_CLAIM says so.
 */
export type AccountOutcome =
  | { outcome: 'account'; account: Account; created: boolean }
  /** An account has this e-mail, but the provider does not vouch for it. */
  | { outcome: 'link_required'; account: Account }
  | { outcome: 'email_missing' }

/** A new person's name: the token's, else the e-mail's local part, else a word. */
export function nameForNewAccount(identity: Pick<ProviderIdentity, 'name' | 'email'>): string {
  if (identity.name !== null) return identity.name
  const local = normalizeName((identity.email ?? '').split('@')[0] ?? '')
  return local !== '' && nameProblem(local) === null ? local : 'Pessoa sem nome'
}

export async function accountForIdentity(
  { db, now }: Pick<ApiContext, 'db' | 'now'>,
  provider: AuthProvider,
  identity: ProviderIdentity,
  origin: RequestOrigin | undefined,
): Promise<AccountOutcome> {
  const key = { provider: provider.name, issuer: identity.issuer, subject: identity.subject }
  const at = now()
  return db.transaction().execute(async (trx) => {
    const linked = await findLink(trx, key)
    const linkedAccount = linked && (await findAccountById(trx, linked.accountId))
    if (linked && linkedAccount) {
      await touchLink(trx, linked.linkId, at)
      return {
        outcome: 'account',
        account: await promoteByClaim(trx, linkedAccount, identity, origin),
        created: false,
      }
    }
    if (identity.email === null) return { outcome: 'email_missing' }
    const existing = await findAccountByEmail(trx, identity.email)
    if (existing) {
      if (!identity.emailVerified) return { outcome: 'link_required', account: existing }
      if (!(await addLink(trx, key, existing.id, at))) {
        // This subject is linked to another account, or a concurrent callback linked it first.
        return { outcome: 'link_required', account: existing }
      }
      await recordAccountEvent(trx, 'provider_linked', existing.id, origin, {
        provider: provider.name,
        by: 'verified_email',
      })
      return {
        outcome: 'account',
        account: await promoteByClaim(trx, existing, identity, origin),
        created: false,
      }
    }
    if (!identity.emailVerified) {
      // A new account for an e-mail nobody vouches for would squat someone else's address.
      return { outcome: 'email_missing' }
    }
    const created = await trx
      .insertInto('accounts')
      .values({
        id: crypto.randomUUID(),
        ...nameColumns(nameForNewAccount(identity)),
        email: identity.email,
        // No password: verifyPassword matches nothing against an empty hash (at a real cost).
        password_hash: '',
        ...roleColumns(
          identity.adminValues.length > 0 ? BUILT_IN_ROLE_IDS.admin : BUILT_IN_ROLE_IDS.staff,
        ),
        status: provider.autoApprove ? 'active' : 'pending',
      })
      .onConflict((conflict) => conflict.column('email').doNothing())
      .returningAll()
      .executeTakeFirst()
    if (!created) {
      // Another callback for this e-mail created its account a moment ago: link to that one.
      const racer = await findAccountByEmail(trx, identity.email)
      if (!racer || !(await addLink(trx, key, racer.id, at))) {
        return racer ? { outcome: 'link_required', account: racer } : { outcome: 'email_missing' }
      }
      return { outcome: 'account', account: racer, created: false }
    }
    await addLink(trx, key, created.id, at)
    await recordAccountEvent(trx, 'registered', created.id, origin, { via: provider.name })
    await recordAccountEvent(trx, 'provider_linked', created.id, origin, {
      provider: provider.name,
      by: 'new_account',
    })
    return { outcome: 'account', account: created, created: true }
  })
}

/**
 * ADMIN_CLAIM's values make a staff member an admin at their next sign-in there. The claim never
 * demotes: an admin removed from the group is demoted in Equipe, where the last-admin rule holds.
 */
async function promoteByClaim(
  db: Db,
  account: Account,
  identity: ProviderIdentity,
  origin: RequestOrigin | undefined,
): Promise<Account> {
  if (identity.adminValues.length === 0 || account.role === 'admin') return account
  const promoted = await db
    .updateTable('accounts')
    .set({ ...roleColumns(BUILT_IN_ROLE_IDS.admin), updated_at: new Date() })
    .where('id', '=', account.id)
    .returningAll()
    .executeTakeFirstOrThrow()
  await recordAccountEvent(db, 'role_changed', account.id, origin, {
    from: 'staff',
    to: 'admin',
    provider: identity.provider,
  })
  return promoted
}
