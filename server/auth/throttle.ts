import { sql } from 'kysely'
import type { Db } from '../db/database'
import { storageProblem } from '../db/storage-failure'

/**
 * A count per key in a fixed time window, kept in the database so that it holds across restarts
 * and across replicas. Used for failed sign-ins (per account and per address) and for recovery
 * mails (per account).
 */
export class Throttle {
  /**
   * Counts the database could not take (full disk, read-only): held here and written as soon as
   * it can, and counted meanwhile, so a guess made during an outage is neither free nor lost.
   */
  private readonly unwritten = new Map<string, { count: number; at: Date }>()

  constructor(
    private readonly db: Db,
    private readonly limit: number,
    private readonly windowSeconds: number,
  ) {}

  /** Seconds until the key may try again; 0 when it is under its limit. */
  async secondsToWait(key: string, now = new Date()): Promise<number> {
    await this.writeHeldCounts()
    const held = this.unwritten.get(key)
    const row = await this.db
      .selectFrom('auth_throttle')
      .select(['count', 'window_started_at'])
      .where('key', '=', key)
      .executeTakeFirst()
    const count = (row?.count ?? 0) + (held?.count ?? 0)
    if (count < this.limit) return 0
    const startedAt = row?.window_started_at ?? held?.at ?? now
    const endsAt = startedAt.getTime() + this.windowSeconds * 1000
    return Math.max(0, Math.ceil((endsAt - now.getTime()) / 1000))
  }

  /** Counts one more for the key; a window that has ended starts over. */
  async count(key: string, now = new Date()): Promise<void> {
    try {
      await this.add(key, 1, now)
    } catch (error) {
      if (storageProblem(error) === null) throw error
      const held = this.unwritten.get(key)
      this.unwritten.set(key, { count: (held?.count ?? 0) + 1, at: held?.at ?? now })
    }
  }

  private async writeHeldCounts(): Promise<void> {
    for (const [key, held] of this.unwritten) {
      try {
        await this.add(key, held.count, held.at)
      } catch (error) {
        if (storageProblem(error) === null) throw error
        return // still failing: keep them all for the next time
      }
      this.unwritten.delete(key)
    }
  }

  private async add(key: string, n: number, now: Date): Promise<void> {
    const windowEnded = sql<boolean>`auth_throttle.window_started_at <= ${new Date(now.getTime() - this.windowSeconds * 1000)}`
    await this.db
      .insertInto('auth_throttle')
      .values({ key, count: n, window_started_at: now })
      .onConflict((conflict) =>
        conflict.column('key').doUpdateSet({
          count: sql`case when ${windowEnded} then ${n} else auth_throttle.count + ${n} end`,
          window_started_at: sql`case when ${windowEnded} then ${now} else auth_throttle.window_started_at end`,
        }),
      )
      .execute()
  }

  async clear(key: string): Promise<void> {
    this.unwritten.delete(key)
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
