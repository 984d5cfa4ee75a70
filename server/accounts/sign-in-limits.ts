import { sql, type RawBuilder, type SqlBool } from 'kysely'
import type { Db } from '../db/database'
import { deleteInBatches } from '../db/batched-delete'

/**
 * How many failed password checks a key may have, and how long it waits after them. Growing
 * delays, not a flat lock: `free` failures come without a wait, then each waits: the first
 * `firstDelaySeconds`, each one after twice the one before, up to `maxDelaySeconds`. At `perWindow` failures in one window the key
 * waits for the window to end (NIST SP 800-63B §5.2.2: at most 100 consecutive failures).
 */
export interface LimitRule {
  name: string
  free: number
  firstDelaySeconds: number
  maxDelaySeconds: number
  perWindow?: number
  windowSeconds: number
  /** What a right password does to the key: the count starts over, or only this try is given back. */
  onSuccess: 'clear' | 'refund'
}

const MINUTE = 60
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

/**
 * The keys a sign-in counts against. From a browser that signed in to the account before (a
 * trusted device) only that device's own key; from anywhere else the account from that address,
 * the address across accounts, and the account from every untrusted place together.
 */
export const RULES = {
  /** Only the device's owner has its token, so nobody else can make it wait. */
  device: {
    name: 'device',
    free: 10,
    firstDelaySeconds: MINUTE,
    maxDelaySeconds: HOUR,
    windowSeconds: DAY,
    onSuccess: 'clear',
  },
  /** One guesser on one address slows down fast; the owner elsewhere never sees it. */
  accountAndAddress: {
    name: 'account-address',
    free: 5,
    firstDelaySeconds: MINUTE,
    maxDelaySeconds: HOUR,
    windowSeconds: DAY,
    onSuccess: 'clear',
  },
  /** One address trying many accounts (password spraying). */
  address: {
    name: 'address',
    free: 50,
    firstDelaySeconds: MINUTE,
    maxDelaySeconds: HOUR,
    windowSeconds: HOUR,
    onSuccess: 'refund',
  },
  /** Many addresses against one account: at most 100 password checks a day from new browsers. */
  account: {
    name: 'account',
    free: 100,
    firstDelaySeconds: 0,
    maxDelaySeconds: 0,
    perWindow: 100,
    windowSeconds: DAY,
    onSuccess: 'refund',
  },
  /** Recovery mails to one account: a mailbox is not flooded by someone else's requests. */
  recoveryMail: {
    name: 'recovery-mail',
    free: 3,
    firstDelaySeconds: 0,
    maxDelaySeconds: 0,
    perWindow: 3,
    windowSeconds: HOUR,
    onSuccess: 'refund',
  },
} as const satisfies Record<string, LimitRule>

/** The wait after the n-th failure of a window, in seconds (the cap for `perWindow` aside). */
export function delayAfter(rule: LimitRule, failures: number): number {
  if (failures < rule.free) return 0
  return Math.min(rule.maxDelaySeconds, rule.firstDelaySeconds * 2 ** (failures - rule.free))
}

export interface LimitKey {
  rule: LimitRule
  key: string
  /** The e-mail whose locks this key is part of; null for an address's own key. */
  account: string | null
}

export const limitKeys = {
  device: (tokenHash: string, email: string): LimitKey => ({
    rule: RULES.device,
    key: `device:${tokenHash}`,
    account: email,
  }),
  // An address never holds "|", so the key reads one way only.
  accountAndAddress: (email: string, address: string): LimitKey => ({
    rule: RULES.accountAndAddress,
    key: `account-address:${email}|${address}`,
    account: email,
  }),
  address: (address: string): LimitKey => ({
    rule: RULES.address,
    key: `address:${address}`,
    account: null,
  }),
  account: (email: string): LimitKey => ({
    rule: RULES.account,
    key: `account:${email}`,
    account: email,
  }),
  recoveryMail: (email: string): LimitKey => ({
    rule: RULES.recoveryMail,
    key: `recovery-mail:${email}`,
    account: email,
  }),
}

/** A password check that went through the gate; it counts as failed unless told otherwise. */
export interface Attempt {
  /** The password was right: each key clears or gets this try back. */
  succeeded(): Promise<void>
  /** The check never happened (the server was too busy): every key gets this try back. */
  abandoned(): Promise<void>
}

export type GateResult =
  { allowed: true; attempt: Attempt } | { allowed: false; retryAfterSeconds: number }

const at = (now: Date, seconds: number) => new Date(now.getTime() + seconds * 1000)

/**
 * "No wait" is stored as a time long past, never as the request's `now`: concurrent requests
 * read the clock in one order and reach the database in another, and one that read an earlier
 * `now` must not find the key "blocked" until a later `now` of another request.
 */
const NO_WAIT = new Date(0)

/**
 * The time a key may try again after its count becomes `count`, as SQL. Every branch is a value
 * the statement can compute alone, so the decision is made inside the one atomic write. The
 * `excluded.blocked_until` branch (always NO_WAIT) also gives PostgreSQL the branches' type.
 */
function blockedUntil(
  rule: LimitRule,
  count: RawBuilder<number>,
  windowEnds: RawBuilder<Date>,
  now: Date,
): RawBuilder<Date> {
  const branches: RawBuilder<unknown>[] = []
  if (rule.perWindow !== undefined) {
    branches.push(sql`when ${count} >= ${rule.perWindow} then ${windowEnds}`)
  }
  branches.push(sql`when ${count} < ${rule.free} then excluded.blocked_until`)
  for (let failures = rule.free; ; failures += 1) {
    const delay = delayAfter(rule, failures)
    if (delay >= rule.maxDelaySeconds) break
    branches.push(sql`when ${count} = ${failures} then ${at(now, delay)}`)
  }
  return sql<Date>`case ${sql.join(branches, sql` `)} else ${at(now, rule.maxDelaySeconds)} end`
}

/**
 * Failed sign-ins (and recovery mails), counted in the database (so across restarts and replicas) and counted before
 * the password is checked: one `INSERT … ON CONFLICT DO UPDATE … WHERE … RETURNING` both checks
 * that the key may try now and counts the try, so concurrent guesses cannot all read "under the
 * limit" before any of them writes. A try that turns out right is given back afterwards.
 */
export class SignInLimits {
  /** `now`: the server's clock (a test's TestClock), so waits can be tested over a day. */
  constructor(
    private readonly db: Db,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Counts a try against every key, or none when one of them must wait (then: how long). */
  async gate(keys: LimitKey[], now = this.now()): Promise<GateResult> {
    const counted: Counted[] = []
    for (const key of keys) {
      const written = await this.write(key, { change: 'count' }, now)
      if (written) {
        counted.push({ key, blockedUntil: written })
        continue
      }
      // Tries counted on the keys before this one did not happen after all.
      for (const done of counted) await this.giveBack(done, now)
      return { allowed: false, retryAfterSeconds: await this.secondsToWait(key, now) }
    }
    return {
      allowed: true,
      attempt: {
        succeeded: async () => {
          for (const done of counted) {
            if (done.key.rule.onSuccess === 'clear') await this.clear(done.key.key)
            else await this.giveBack(done, this.now())
          }
        },
        abandoned: async () => {
          for (const done of counted) await this.giveBack(done, this.now())
        },
      },
    }
  }

  /** Whether new browsers must wait before trying this account's password (isLockedSql in SQL). */
  async isLocked(email: string, now = this.now()): Promise<boolean> {
    return (await this.secondsToWait(limitKeys.account(email), now)) > 0
  }

  /** Lifts every wait of an account (an admin's decision, or its owner proving who they are). */
  async unlock(email: string): Promise<void> {
    await this.db.deleteFrom('sign_in_limits').where('account', '=', email).execute()
  }

  private async clear(key: string): Promise<void> {
    await this.db.deleteFrom('sign_in_limits').where('key', '=', key).execute()
  }

  private async secondsToWait(key: LimitKey, now: Date): Promise<number> {
    const row = await this.db
      .selectFrom('sign_in_limits')
      .select(['blocked_until', 'window_ends_at'])
      .where('key', '=', key.key)
      .executeTakeFirst()
    if (!row || row.window_ends_at <= now) return 0
    return Math.max(0, Math.ceil((row.blocked_until.getTime() - now.getTime()) / 1000))
  }

  /**
   * A try that did not count after all: one failure less, and the wait its count began is
   * lifted (the key could try when it was counted, so it can again). A wait that a later failure
   * wrote meanwhile is someone else's, and stays.
   */
  private giveBack(done: Counted, now: Date): Promise<Date | undefined> {
    return this.write(done.key, { change: 'give-back', countWrote: done.blockedUntil }, now)
  }

  /**
   * `count`: one more failure, only when the key may try now (else nothing comes back); what
   * comes back is the wait it wrote. `give-back`: see giveBack(). Either way a window that has
   * ended starts over.
   */
  private async write(
    key: LimitKey,
    change: { change: 'count' } | { change: 'give-back'; countWrote: Date },
    now: Date,
  ): Promise<Date | undefined> {
    const { rule } = key
    const ended = sql<boolean>`sign_in_limits.window_ends_at <= ${now}`
    const count =
      change.change === 'count'
        ? sql<number>`case when ${ended} then 1 else sign_in_limits.count + 1 end`
        : sql<number>`case when ${ended} or sign_in_limits.count <= 0 then 0 else sign_in_limits.count - 1 end`
    const windowEnds = sql<Date>`case when ${ended} then excluded.window_ends_at else sign_in_limits.window_ends_at end`
    const row = await this.db
      .insertInto('sign_in_limits')
      .values({
        key: key.key,
        account: key.account,
        count: change.change === 'count' ? 1 : 0,
        window_ends_at: at(now, rule.windowSeconds),
        // A first failure is within `free` (every rule has more than one): no wait yet.
        blocked_until: NO_WAIT,
      })
      .onConflict((conflict) => {
        if (change.change === 'give-back') {
          return conflict.column('key').doUpdateSet({
            count,
            window_ends_at: windowEnds,
            blocked_until: sql<Date>`case when ${ended} or sign_in_limits.blocked_until = ${change.countWrote} then excluded.blocked_until else sign_in_limits.blocked_until end`,
          })
        }
        return conflict
          .column('key')
          .doUpdateSet({
            count,
            window_ends_at: windowEnds,
            blocked_until: blockedUntil(rule, count, windowEnds, now),
          })
          .where((where) =>
            where.or([
              where('sign_in_limits.blocked_until', '<=', now),
              where('sign_in_limits.window_ends_at', '<=', now),
            ]),
          )
      })
      .returning('blocked_until')
      .executeTakeFirst()
    return row?.blocked_until
  }
}

/** A key a try was counted against, and the wait that count wrote. */
interface Counted {
  key: LimitKey
  blockedUntil: Date
}

/**
 * isLocked() as a condition on a query's row, given the SQL of that row's e-mail: Equipe's list
 * (features/staff/staff-list.ts) filters and shows it in one query, without a query per account.
 * One row asked by its key, row by row, as a scalar subquery rather than an EXISTS, which
 * PostgreSQL may answer by hashing every lock there is first.
 */
export function isLockedSql(email: RawBuilder<string>, now = new Date()): RawBuilder<SqlBool> {
  return sql<SqlBool>`(coalesce((select 1 from sign_in_limits where sign_in_limits.key = ${limitKeys.account('').key} || ${email} and sign_in_limits.window_ends_at > ${now} and sign_in_limits.blocked_until > ${now} limit 1), 0) = 1)`
}

/** Drops keys whose window ended (their counts no longer matter), a batch at a time. */
export async function pruneSignInLimits(db: Db, now = new Date()): Promise<void> {
  await deleteInBatches(db, (limit) =>
    db
      .deleteFrom('sign_in_limits')
      .where(
        'key',
        'in',
        db
          .selectFrom('sign_in_limits')
          .select('key')
          .where('window_ends_at', '<=', now)
          .limit(limit),
      ),
  )
}
