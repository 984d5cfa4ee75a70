import { setImmediate as nextTurn } from 'node:timers/promises'

/**
 * How many rows one statement of a prune removes. On SQLite a statement holds the event loop:
 * at a year's size (100k people, 100k events a third of which a retention of 200 days drops), a
 * thousand events took 74-84 ms a statement (p99 260-327 ms), a hundred 6.5-8 ms (p99 33-38 ms),
 * the whole prune 2.7-3.1 s against 4.6-5.0 s; the 38,272 sessions of that data, ended, 732 ms in
 * one statement (by hand on the data npm run bench -- --only scale seeds).
 */
export const DELETE_BATCH = 100

/**
 * Runs `deleteUpTo` (a delete of at most `limit` of the rows a prune removes) until it removes
 * fewer, with a turn of the event loop between: a backlog (a retention made shorter, a server
 * stopped for days, a spray of failed sign-ins) must not hold the embedded database, and the
 * requests waiting on it, for the seconds one delete of every row takes.
 */
export async function deleteInBatches(
  deleteUpTo: (limit: number) => Promise<{ numDeletedRows: bigint }>,
): Promise<void> {
  for (;;) {
    const { numDeletedRows } = await deleteUpTo(DELETE_BATCH)
    if (Number(numDeletedRows) < DELETE_BATCH) return
    await nextTurn()
  }
}
