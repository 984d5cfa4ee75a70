/**
 * Accounts as both sides know them, shared by the forms (client/src) and the auth API (server/),
 * so the two never disagree about what a valid e-mail is, or what an account is. Passwords,
 * names and ids have their own rules beside this file.
 */

export type Role = 'admin' | 'staff'
export type AccountStatus = 'pending' | 'active' | 'disabled'

/** An account as the API shows it (never its password hash): DESIGN.md, "Auth API". */
export interface PublicUser {
  id: string
  name: string
  email: string
  role: Role
  status: AccountStatus
  /** ISO 8601. */
  createdAt: string
}

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

export function isValidEmail(email: string): boolean {
  const normalized = normalizeEmail(email)
  return normalized.length <= EMAIL_MAX_LENGTH && EMAIL_PATTERN.test(normalized)
}
