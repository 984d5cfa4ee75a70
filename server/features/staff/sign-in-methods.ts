import type { SignInMethods } from '../../../common/api/staff'
import { isOpenInvitation } from '../../accounts/accounts'
import { providerLabel, type AuthProvider } from '../../config/auth-providers'
import type { Db } from '../../db/database'
import type { Account } from '../../db/schema'

/**
 * How a person signs in, for their page in Equipe: a password of their own (an account a sign-in
 * provider made has none; an open invitation's is nobody's yet), passkeys, and the providers
 * linked (docs/single-sign-on.md), by the names the login page gives them; and the providers an
 * admin may mail a link for.
 */
export async function signInMethods(
  db: Db,
  account: Account,
  providers: readonly AuthProvider[],
): Promise<SignInMethods> {
  const [passkeys, links] = await Promise.all([
    db
      .selectFrom('passkeys')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('account_id', '=', account.id)
      .executeTakeFirst(),
    db
      .selectFrom('provider_links')
      .select('provider')
      .where('account_id', '=', account.id)
      .orderBy('linked_at')
      .execute(),
  ])
  const linked = new Set(links.map((link) => link.provider))
  return {
    password: account.password_hash !== '' && !isOpenInvitation(account),
    passkeys: Number(passkeys?.n ?? 0),
    providers: links.map((link) => providerLabel(link.provider, providers)),
    // Only an account that can sign in gets a link (features/sign-in-with-provider/).
    linkable:
      account.status === 'active'
        ? providers
            .filter((provider) => !linked.has(provider.name))
            .map((provider) => ({
              name: provider.name,
              label: providerLabel(provider.name, providers),
            }))
        : [],
  }
}
