import { Secret, TOTP } from 'otpauth'

/**
 * TOTP (RFC 6238) with the usual authenticator-app settings: SHA-1, 6 digits, 30-second steps,
 * a code of the step before or after accepted for clock drift. The otpauth package does the
 * arithmetic; which step a code was for is what lets the caller refuse a replay.
 */
const PERIOD_SECONDS = 30
const ISSUER = 'Painel'

export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32
}

function totp(secret: string, label = ''): TOTP {
  return new TOTP({
    issuer: ISSUER,
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD_SECONDS,
    secret: Secret.fromBase32(secret),
  })
}

/** What the QR code holds: `otpauth://totp/Painel:ana@example.com?secret=…&issuer=Painel…`. */
export function otpauthUrl(secret: string, email: string): string {
  return totp(secret, email).toString()
}

export const looksLikeTotpCode = (code: string) => /^\d{6}$/.test(code)

/** The time step a code is right for (now, or one step either side), or null. */
export function totpStep(secret: string, code: string, now: Date): number | null {
  if (!looksLikeTotpCode(code)) return null
  const delta = totp(secret).validate({ token: code, timestamp: now.getTime(), window: 1 })
  if (delta === null) return null
  return Math.floor(now.getTime() / 1000 / PERIOD_SECONDS) + delta
}

/** A code for a moment (tests, and nothing else, play the app). */
export function totpCode(secret: string, at: Date): string {
  return totp(secret).generate({ timestamp: at.getTime() })
}
