import { sql } from 'kysely'
import type { Db } from './database'
import { engineOf } from './portable-sql'

/**
 * After a deletion that must leave no trace on the disk (an anonymisation:
 * features/account-deletion/anonymise-account.ts), once it has committed.
 *
 * SQLite: secure_delete (sqlite-database.ts) zeroes the deleted rows in the pages the change
 * wrote, but those pages sit in the WAL, and the WAL's older frames still hold the rows as they
 * were before. A checkpoint (TRUNCATE) copies the zeroed pages into the database file and empties
 * the WAL, so neither file keeps the bytes, and no operator's VACUUM is needed. Its cost is that of
 * the checkpoint SQLite makes by itself every 1000 pages (about 4 MB of WAL at most): measured on
 * this project's 2-core machine with a 50,000-row table, a checkpoint took 7–19 ms, and
 * secure_delete's own cost was lost in the noise (a 25,000-row delete 83–175 ms with it on or
 * off, a one-row commit 0.2–2 ms either way). Anonymisations are rare admin actions, so this is
 * paid seldom. A reader holding an old snapshot (a backup under way: backup.ts) keeps the WAL
 * from being emptied, and so does an operator's sqlite3 in a write transaction; the checkpoint
 * does not wait for them (db/wal-checkpointer.ts), the answer says busy, and the next checkpoint
 * (the checkpointer's next, the close's, or SQLite's own) finishes the job.
 *
 * PostgreSQL: nothing here. Its dead row versions stay in the table's files until autovacuum
 * reuses the space, and in its WAL until recycled (docs/personal-data.md says so).
 */
export async function forgetDeletedBytes(db: Db): Promise<'done' | 'busy' | 'not-sqlite'> {
  if (engineOf(db) !== 'sqlite') return 'not-sqlite'
  const { rows } = await sql<{ busy: number }>`pragma wal_checkpoint(TRUNCATE)`.execute(db)
  return rows[0]?.busy === 0 ? 'done' : 'busy'
}
