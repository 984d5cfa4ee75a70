import { normalizeEmail } from '../../common/account-rules'
import type { Config } from '../config/config'
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
    config.passwordSignIn ||
    normalizeEmail(email) === normalizeEmail(config.adminEmail ?? DEFAULT_ADMIN_EMAIL)
  )
}
