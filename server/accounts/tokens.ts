import { createHash, randomBytes } from 'node:crypto'

/**
 * Opaque tokens: 256 random bits, base64url (43 characters). Only their SHA-256 is stored, so a
 * copy of the database does not hold a single usable token. A plain hash (no salt, no slow
 * function) is enough: 256 random bits cannot be guessed, only stolen.
 */
export function newToken(): string {
  return randomBytes(32).toString('base64url')
}

export function tokenHash(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex')
}

/** The shape every token of ours has; anything else is refused before touching the database. */
const TOKEN_CHARACTERS = '[A-Za-z0-9_-]{43}'
const TOKEN = new RegExp(`^${TOKEN_CHARACTERS}$`)
/** `Authorization: Bearer <token>`, the token captured. */
export const BEARER = new RegExp(`^Bearer (${TOKEN_CHARACTERS})$`)

export function isWellFormedToken(value: string): boolean {
  return TOKEN.test(value)
}
