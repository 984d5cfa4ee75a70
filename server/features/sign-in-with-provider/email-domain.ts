/**
 * AUTH_<NAME>_ALLOWED_DOMAINS: who may sign in with a provider, by the e-mail's domain. Only an
 * e-mail the provider vouches for counts (provider-identity.ts decides which): anyone can type
 * an address of any domain into an account they control at a provider that does not check it.
 */

/** The domain of an address, lower-cased; null when it is not an address. */
export function emailDomain(email: string): string | null {
  const at = email.lastIndexOf('@')
  if (at <= 0 || at === email.length - 1) return null
  return email.slice(at + 1).toLowerCase()
}

/**
 * Whether the list allows this e-mail: an empty list allows anyone; otherwise the e-mail must be
 * verified and its domain exactly one listed (a subdomain is another organisation's business).
 */
export function isAllowedDomain(
  email: string | null,
  emailVerified: boolean,
  allowedDomains: readonly string[],
): boolean {
  if (allowedDomains.length === 0) return true
  if (email === null || !emailVerified) return false
  const domain = emailDomain(email)
  return domain !== null && allowedDomains.includes(domain)
}
