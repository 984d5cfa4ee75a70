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

/** E-mail addresses are compared trimmed and lower-cased: `Ana@Empresa.com ` is ana@empresa.com. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase()
}

/** The server's word for an address it refuses (the forms say more: messages.ts). */
export const INVALID_EMAIL_MESSAGE = 'Informe um e-mail válido.'

export function isValidEmail(email: string): boolean {
  const normalized = normalizeEmail(email)
  return normalized.length <= EMAIL_MAX_LENGTH && EMAIL_PATTERN.test(normalized)
}
