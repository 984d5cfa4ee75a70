import type { CompiledQuery, DeleteResult, UpdateResult } from 'kysely'
import { setImmediate as nextTurn } from 'node:timers/promises'
import type { Db } from './database'
import { stepRunner } from './sqlite-dialect'

/**
 * How many rows one statement of a prune removes. On SQLite a statement holds the event loop: on
 * 100k people and 100k events made by the scale bench's seeding code, a retention of 200 days
 * dropping a third of the events took 74-84 ms a statement a thousand at a time (p99 260-327 ms,
 * 2.7-3.1 s in all), 6.5-8 ms a hundred at a time (p99 33-38 ms, 4.6-5.0 s in all); the 38,272
 * sessions of that data, ended, took 732 ms in one statement (by hand, 2026-12-01).
 */
export const DELETE_BATCH = 100

/**
 * Runs `deleteUpTo(limit)` (a Kysely delete of at most `limit` of the rows a prune removes) until
 * it removes fewer, with a turn of the event loop between: a backlog (a retention made shorter, a
 * server stopped for days, a spray of failed sign-ins) must not hold the embedded database, and
 * the requests waiting on it, for the seconds one delete of every row takes. The first batch runs
 * on the connection, so that a prune with little or nothing to remove, as most of housekeeping's
 * are, starts no thread; a backlog's batches after it run on the database's thread (runBatch).
 */
export async function deleteInBatches(
  db: Db,
  deleteUpTo: (limit: number) => BatchStatement,
): Promise<void> {
  let first = true
  await inBatches((limit) => {
    if (!first) return runBatch(db, deleteUpTo(limit))
    first = false
    return rowsTouched(deleteUpTo(limit))
  })
}

/** One batch's statement: a Kysely delete or update of at most a batch of rows. */
export interface BatchStatement {
  compile(): CompiledQuery
  executeTakeFirst(): Promise<DeleteResult | UpdateResult>
}

/**
 * Runs one batch's statement and answers how many rows it touched: on the embedded database's
 * thread when it has one (stepRunner in sqlite-dialect.ts: the batch's COMMIT waits for the disk
 * there, not on the event loop), else as a query, in a transaction of its own.
 */
export async function runBatch(db: Db, statement: BatchStatement): Promise<number> {
  const onThread = stepRunner(db)
  return onThread ? onThread(statement.compile()) : rowsTouched(statement)
}

/** Runs a batch's statement as a query; how many rows it touched. */
async function rowsTouched(statement: BatchStatement): Promise<number> {
  const result = await statement.executeTakeFirst()
  return Number('numDeletedRows' in result ? result.numDeletedRows : result.numUpdatedRows)
}

/**
 * The same loop for any statement on many rows (a team's people moved out before it goes:
 * roles/team-store.ts): `upTo` touches at most `limit` rows and says how many it touched; it runs
 * until it touches fewer, with a turn of the event loop between. Answers how many in all.
 */
export async function inBatches(
  upTo: (limit: number) => Promise<number | bigint>,
): Promise<number> {
  let total = 0
  for (;;) {
    const touched = Number(await upTo(DELETE_BATCH))
    total += touched
    if (touched < DELETE_BATCH) return total
    await nextTurn()
  }
}
