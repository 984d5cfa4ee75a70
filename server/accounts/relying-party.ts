import type * as SimpleWebAuthn from '@simplewebauthn/server'

/**
 * Who the passkeys are for (WebAuthn's "relying party"): PUBLIC_URL, the same address mailed
 * links start with and never the request's Host, which a caller controls. A passkey made for
 * one host name signs for that name only, so PUBLIC_URL must be where staff open the panel. A
 * browser refuses passkeys on a bare IP address (127.0.0.1): use a name, `localhost` included.
 */
export interface RelyingParty {
  /** The host name the browser scopes passkeys to (the RP ID). */
  id: string
  /** The origin a browser reports in clientDataJSON. */
  origin: string
  /** Shown by the browser's passkey prompt. */
  name: string
}

export function relyingParty(publicUrl: string): RelyingParty {
  const url = new URL(publicUrl)
  return { id: url.hostname, origin: url.origin, name: 'Painel' }
}

/**
 * @simplewebauthn/server, loaded at the first passkey call: it brings ASN.1 and X.509 parsers
 * that take about a second to load on a busy machine, which a start (and every call that is not
 * about passkeys) should not pay.
 */
let library: Promise<typeof SimpleWebAuthn> | undefined
export const webauthnLibrary = () => (library ??= import('@simplewebauthn/server'))

/** The COSE algorithms offered and accepted: Ed25519, ES256 (the usual one), RS256 (Windows Hello). */
export const SUPPORTED_ALGORITHMS = [-8, -7, -257]

/** How long the browser's prompt may stay open, and how long its challenge is good for. */
export const CEREMONY_TIMEOUT_MS = 2 * 60_000
export const CHALLENGE_TTL_MS = 5 * 60_000

/** The user handle a passkey of this account carries: its id's bytes (nothing personal). */
export const userHandleOf = (accountId: string) => new TextEncoder().encode(accountId)
