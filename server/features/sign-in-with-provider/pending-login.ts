import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto'
import { STATE_PATTERN } from './callback-query'

/**
 * What Painel must remember between sending a browser to the provider and its return: the
 * state, the PKCE verifier, the nonce and where the person was going. Kept in the browser that
 * started the sign-in, in an HttpOnly cookie sealed with AES-256-GCM (docs/single-sign-on.md,
 * "The pending sign-in"):
 *
 * - it survives a restart and works with any number of replicas without a table (no migration):
 *   the key is derived from the provider's CLIENT_SECRET, which every replica has;
 * - it binds the callback to the browser that pressed the button, which a row keyed by `state`
 *   alone would not: a callback URL sent to someone else (login CSRF) finds no cookie there;
 * - sealed, so the verifier and nonce are unreadable and nothing in it can be changed (the
 *   redirect target included); it names its provider and expires after 10 minutes.
 *
 * Single use: the callback clears the cookie, and the authorization code it carries is redeemed
 * once at the provider (RFC 6749 §4.1.2); a replayed callback is refused there (the tests show it).
 */
export interface PendingLogin {
  provider: string
  state: string
  codeVerifier: string
  nonce: string
  /** Where to land after signing in, already checked by the ?redirect= rules; null: the dashboard. */
  redirectTarget: string | null
  /**
   * The SHA-256 of an admin's link this sign-in was started from (link-invitations.ts): the
   * callback links to that link's account. Sealed here, so the callback reads it from what the
   * start wrote, never from anything the browser brings back.
   */
  invitation?: string
  /** Milliseconds since the epoch. */
  expiresAt: number
}

export const PENDING_LOGIN_TTL_MS = 10 * 60_000

/** The cookie of one pending sign-in: by its state, so two tabs do not overwrite each other. */
export function pendingLoginCookie(providerName: string, state: string) {
  return {
    name: `painel_sso_${state.slice(0, 16)}`,
    /** Sent only to the callback; SameSite=Lax, since the provider's redirect is cross-site. */
    path: `/api/auth/oidc/${providerName}/callback`,
    maxAgeSeconds: PENDING_LOGIN_TTL_MS / 1000,
  }
}

const IV_BYTES = 12
const TAG_BYTES = 16

export class PendingLoginSeal {
  private readonly key: Buffer
  private readonly context: Buffer

  constructor(
    clientSecret: string,
    private readonly providerName: string,
  ) {
    this.key = Buffer.from(
      hkdfSync(
        'sha256',
        clientSecret,
        'painel sign-in-with-provider',
        `pending-login:${providerName}`,
        32,
      ),
    )
    this.context = Buffer.from(`painel pending login ${providerName}`)
  }

  seal(login: PendingLogin): string {
    const iv = randomBytes(IV_BYTES)
    const cipher = createCipheriv('aes-256-gcm', this.key, iv).setAAD(this.context)
    const body = Buffer.concat([cipher.update(JSON.stringify(login), 'utf8'), cipher.final()])
    return Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url')
  }

  /**
   * The pending sign-in in `sealed`, if it is intact, this provider's, for this state and not
   * expired; otherwise null (all of those read the same to the person: "start again").
   */
  open(sealed: string | undefined, state: string, now: Date): PendingLogin | null {
    if (sealed === undefined || sealed.length > 4096 || !/^[A-Za-z0-9_-]+$/.test(sealed)) {
      return null
    }
    const bytes = Buffer.from(sealed, 'base64url')
    if (bytes.length <= IV_BYTES + TAG_BYTES) return null
    let login: PendingLogin
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, bytes.subarray(0, IV_BYTES))
        .setAAD(this.context)
        .setAuthTag(bytes.subarray(bytes.length - TAG_BYTES))
      const text = Buffer.concat([
        decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)),
        decipher.final(),
      ]).toString('utf8')
      login = JSON.parse(text) as PendingLogin
    } catch {
      return null
    }
    if (
      login.provider !== this.providerName ||
      !STATE_PATTERN.test(state) ||
      login.state !== state ||
      !(login.expiresAt > now.getTime())
    ) {
      return null
    }
    return login
  }
}
