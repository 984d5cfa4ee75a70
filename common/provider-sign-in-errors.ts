/**
 * Why a sign-in at a provider did not end in a session: the server sends the browser back to
 * `#/login?sso_error=<code>` (server/features/sign-in-with-provider/), and the login page says
 * the code's pt-BR words (client/src/features/sign-in/provider-sign-in-messages.ts).
 */
export const PROVIDER_SIGN_IN_ERRORS = [
  'cancelled',
  'provider_error',
  'invalid_callback',
  'link_expired',
  'provider_unreachable',
  'code_rejected',
  'token_rejected',
  /** The provider's UserInfo endpoint failed (unreachable, an error, an invalid answer). */
  'userinfo_failed',
  /** UserInfo answered for another subject than the ID token's. */
  'userinfo_mismatch',
  'domain_not_allowed',
  'pending_approval',
  'account_disabled',
  'link_required',
  'email_missing',
  'too_many_attempts',
  /** An admin's link (docs/single-sign-on.md): used, replaced or expired. */
  'invitation_expired',
  /** An admin's link: the identity signed in with is another account's already. */
  'linked_elsewhere',
] as const
export type ProviderSignInError = (typeof PROVIDER_SIGN_IN_ERRORS)[number]

export const isProviderSignInError = (value: unknown): value is ProviderSignInError =>
  (PROVIDER_SIGN_IN_ERRORS as readonly unknown[]).includes(value)

/** The login page's query parameters of a provider's return. */
export const SSO_CODE_PARAM = 'sso'
export const SSO_ERROR_PARAM = 'sso_error'
