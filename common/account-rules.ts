/**
 * E-mail rules both sides apply, shared by the forms (client/src) and the auth API (server/), so
 * the two never disagree about what a valid e-mail is. Passwords, names and ids have their own
 * rules beside this file; what an account looks like on the wire is its schema in api/account.ts.
 */

export type { AccountStatus, PublicUser, Role } from './api/account'

export const EMAIL_MAX_LENGTH = 254

/**
 * A valid e-mail address as HTML's <input type="email"> defines it. It accepts a host without a
 * dot, like the first admin's `admin@localhost`.
 */
export const EMAIL_PATTERN =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/

/**
 * The one form of an e-mail address that every comparison uses (registration, invitation,
 * password sign-in, recovery, e-mail change, a provider's claims), or null when it is not an
 * address the panel accepts. Blanks around it are dropped and ASCII letters lower-cased:
 * `Ana@Empresa.com ` is ana@empresa.com.
 *
 * Only ASCII addresses are accepted (no SMTPUTF8; docs/security.md, "E-mail addresses"), and the
 * check runs before the lower-casing, on purpose: JavaScript's toLowerCase folds some non-ASCII
 * letters into ASCII ones (U+212A KELVIN SIGN into `k`, U+212B ANGSTROM SIGN into `å`), so
 * lower-casing first would let `\u212Aate@corp.test` become, and sign in as, kate@corp.test.
 * Nothing here folds width, accents or invisible characters either: an address holding any of
 * them is refused, never matched to the address it looks like.
 */
export function canonicalEmail(raw: string): string | null {
  const trimmed = raw.trim()
  if (trimmed.length > EMAIL_MAX_LENGTH || !EMAIL_PATTERN.test(trimmed)) return null
  // EMAIL_PATTERN admits ASCII only, so this lower-cases A-Z and nothing else.
  return trimmed.toLowerCase()
}

/**
 * An address that is not canonical, as it may be recorded (an audit line, a log, a count of
 * failed tries): trimmed, with every character outside printable ASCII written as `U+XXXX`, so
 * that `ka\u200Bte@corp.test` never reads as kate@corp.test. A canonical one is returned as is.
 */
export function emailAsTyped(raw: string): string {
  const canonical = canonicalEmail(raw)
  if (canonical !== null) return canonical
  return Array.from(raw.trim().slice(0, EMAIL_MAX_LENGTH), (character) =>
    /^[\x20-\x7e]$/.test(character)
      ? character
      : `U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`,
  ).join('')
}

/** The server's word for an address it refuses (the forms say more: messages.ts). */
export const INVALID_EMAIL_MESSAGE = 'Informe um e-mail válido.'

export function isValidEmail(email: string): boolean {
  return canonicalEmail(email) !== null
}
