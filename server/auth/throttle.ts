import { sql } from 'kysely'
import type { Db } from '../db/database'

/**
 * A count per key in a fixed time window, kept in the database so that it holds across restarts
 * and across replicas. Used for failed sign-ins (per account and per address) and for recovery
 * mails (per account).
 */
export class Throttle {
  constructor(
    private readonly db: Db,
    private readonly limit: number,
    private readonly windowSeconds: number,
  ) {}

  /** Seconds until the key may try again; 0 when it is under its limit. */
  async secondsToWait(key: string, now = new Date()): Promise<number> {
    const row = await this.db
      .selectFrom('auth_throttle')
      .select(['count', 'window_started_at'])
      .where('key', '=', key)
      .executeTakeFirst()
    if (!row || row.count < this.limit) return 0
    const endsAt = row.window_started_at.getTime() + this.windowSeconds * 1000
    return Math.max(0, Math.ceil((endsAt - now.getTime()) / 1000))
  }

  /** Counts one more for the key; a window that has ended starts over. */
  async count(key: string, now = new Date()): Promise<void> {
    const windowEnded = sql<boolean>`auth_throttle.window_started_at <= ${new Date(now.getTime() - this.windowSeconds * 1000)}`
    await this.db
      .insertInto('auth_throttle')
      .values({ key, count: 1, window_started_at: now })
      .onConflict((conflict) =>
        conflict.column('key').doUpdateSet({
          count: sql`case when ${windowEnded} then 1 else auth_throttle.count + 1 end`,
          window_started_at: sql`case when ${windowEnded} then ${now} else auth_throttle.window_started_at end`,
        }),
      )
      .execute()
  }

  async clear(key: string): Promise<void> {
    await this.db.deleteFrom('auth_throttle').where('key', '=', key).execute()
  }
}

/** Drops counts whose window ended long ago (any throttle's window is shorter than a day). */
export async function pruneThrottle(db: Db, now = new Date()): Promise<void> {
  await db
    .deleteFrom('auth_throttle')
    .where('window_started_at', '<', new Date(now.getTime() - 86_400_000))
    .execute()
}
