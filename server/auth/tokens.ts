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
export const TOKEN_PATTERN = '^[A-Za-z0-9_-]{43}$'
