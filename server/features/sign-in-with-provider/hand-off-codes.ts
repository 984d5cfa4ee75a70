import { createHash, randomBytes } from 'node:crypto'
import type { Db } from '../../db/database'

/**
 * The step between the provider's callback and a Painel session. The session token never travels
 * in a URL: the callback sends the browser back to the login page with a hand-off code (in the
 * URL's fragment, which no server or Referer sees), and the page exchanges it with a POST for
 * `{token,user}` (or the second-factor step). A code is 256 random bits, lives 60 seconds, is
 * taken once, and only its SHA-256 is stored.
 *
 * Where the codes live must be shared by every replica: a code made by the replica that served
 * the callback is exchanged on whichever serves the POST. DatabaseHandOffStore is that store (its
 * table: the 2026-11-26-0600-provider-links migration in server/db/migrations.ts).
 * MemoryHandOffStore is for one process (the tests).
 */
export interface HandOff {
  accountId: string
  /** AUTH_PROVIDERS' name: the audit's method. */
  provider: string
  redirectTarget: string | null
  /** The provider showed a multi-factor sign-in and TRUST_MFA trusts it: no second factor asked. */
  providerMultiFactor: boolean
}

export interface HandOffStore {
  put(codeHash: string, handOff: HandOff, expiresAt: Date): Promise<void>
  /** The hand-off, removed in the same step, or undefined when unknown, taken or expired. */
  take(codeHash: string, now: Date): Promise<HandOff | undefined>
}

export const HAND_OFF_TTL_MS = 60_000
const CODE = /^[A-Za-z0-9_-]{43}$/

const hash = (code: string) => createHash('sha256').update(code, 'utf8').digest('hex')

export class HandOffCodes {
  constructor(
    private readonly store: HandOffStore,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async issue(handOff: HandOff): Promise<string> {
    const code = randomBytes(32).toString('base64url')
    await this.store.put(hash(code), handOff, new Date(this.now().getTime() + HAND_OFF_TTL_MS))
    return code
  }

  async redeem(code: unknown): Promise<HandOff | undefined> {
    if (typeof code !== 'string' || !CODE.test(code)) return undefined
    return this.store.take(hash(code), this.now())
  }
}

export class MemoryHandOffStore implements HandOffStore {
  private readonly codes = new Map<string, { handOff: HandOff; expiresAt: Date }>()

  async put(codeHash: string, handOff: HandOff, expiresAt: Date): Promise<void> {
    this.codes.set(codeHash, { handOff, expiresAt })
  }

  async take(codeHash: string, now: Date): Promise<HandOff | undefined> {
    const entry = this.codes.get(codeHash)
    this.codes.delete(codeHash)
    return entry && entry.expiresAt > now ? entry.handOff : undefined
  }
}

export class DatabaseHandOffStore implements HandOffStore {
  constructor(private readonly db: Db) {}

  async put(codeHash: string, handOff: HandOff, expiresAt: Date): Promise<void> {
    await this.db
      .insertInto('sign_in_hand_offs')
      .values({
        code_hash: codeHash,
        account_id: handOff.accountId,
        provider: handOff.provider,
        redirect_target: handOff.redirectTarget,
        provider_multi_factor: handOff.providerMultiFactor,
        expires_at: expiresAt,
      })
      .execute()
  }

  /** One DELETE … RETURNING: of two concurrent exchanges of a code, one gets the row. */
  async take(codeHash: string, now: Date): Promise<HandOff | undefined> {
    const row = await this.db
      .deleteFrom('sign_in_hand_offs')
      .where('code_hash', '=', codeHash)
      .returningAll()
      .executeTakeFirst()
    if (!row || !(row.expires_at > now)) return undefined
    return {
      accountId: row.account_id,
      provider: row.provider,
      redirectTarget: row.redirect_target,
      providerMultiFactor: row.provider_multi_factor,
    }
  }

  /** Expired codes nobody exchanged (the hourly pruning calls it). */
  async prune(now: Date): Promise<void> {
    await this.db.deleteFrom('sign_in_hand_offs').where('expires_at', '<=', now).execute()
  }
}
