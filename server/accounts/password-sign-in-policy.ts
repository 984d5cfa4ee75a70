import { canonicalEmail } from '../../common/account-rules'
import type { Config } from '../config/config'
import type { Account } from '../db/schema'
import { isOpenInvitation } from './accounts'
import { DEFAULT_ADMIN_EMAIL } from './first-admin'

/**
 * PASSWORD_SIGN_IN=off (docs/single-sign-on.md, "Turning passwords off"): the sign-in providers
 * are the way in, and only the first admin (ADMIN_EMAIL, admin@localhost when unset: the account
 * first-admin.ts keeps) keeps a password, so a provider's outage never locks the organisation
 * out. Every use of a password asks this: the sign-in, the link of a provider by password, the
 * recovery link, the invitation's link to set one.
 */
export function passwordAllowedFor(
  config: Pick<Config, 'passwordSignIn' | 'adminEmail'>,
  email: string,
): boolean {
  return (
    config.passwordSignIn || canonicalEmail(email) === (config.adminEmail ?? DEFAULT_ADMIN_EMAIL)
  )
}

/**
 * Whether the account signs in with a password of its own: it has one (an account a provider made
 * has an empty hash; an open invitation's random one is nobody's) and PASSWORD_SIGN_IN lets it.
 * Minha conta shows the change-password card only then.
 */
export function signsInWithPassword(
  config: Pick<Config, 'passwordSignIn' | 'adminEmail'>,
  account: Pick<Account, 'email' | 'password_hash' | 'status' | 'invitation_expires_at'>,
): boolean {
  return (
    account.password_hash !== '' &&
    !isOpenInvitation(account) &&
    passwordAllowedFor(config, account.email)
  )
}
