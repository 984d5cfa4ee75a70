import { createHash, randomInt } from 'node:crypto'

/**
 * Recovery codes: 10 per account, each single-use, for a lost phone. 16 characters from a
 * 31-character alphabet without look-alikes (79 random bits), shown as `xxxx-xxxx-xxxx-xxxx`:
 * with that much randomness a plain SHA-256 keeps them safe at rest, and checking one costs
 * nothing. Typed back, case, spaces and dashes do not matter.
 */
export const RECOVERY_CODE_COUNT = 10
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789'

export function newRecoveryCode(): string {
  const letters = Array.from({ length: 16 }, () => ALPHABET[randomInt(ALPHABET.length)])
  return [0, 4, 8, 12].map((start) => letters.slice(start, start + 4).join('')).join('-')
}

export function normalizeRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[\s-]/g, '')
}

export const looksLikeRecoveryCode = (code: string) =>
  /^[a-z0-9]{16}$/.test(normalizeRecoveryCode(code))

export function recoveryCodeHash(code: string): string {
  return createHash('sha256').update(normalizeRecoveryCode(code)).digest('hex')
}
