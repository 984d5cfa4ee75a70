import type { PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely'
import type Pg from 'pg'

/**
 * The pool as Kysely sees it, with every query given to pg with a callback instead of through
 * the promise pg makes when it has none.
 *
 * Why: reading the audit log a thousand rows at a time through pg's own promise, V8 moved about
 * 45% of what the reads allocated (the rows, their strings and dates) to the old generation,
 * where only a full collection frees it; a year's CSV export grew the server's RSS by about
 * 105 MB. The same loop with a callback moved well under 1% (node --trace-gc-nvp over a million
 * rows: 640 MB against 4 MB promoted; a heap snapshot in the middle held only the rows of the
 * current read either way). npm run bench -- --only scale measures the export's RSS
 * (docs/performance.md).
 */
export function queriesByCallback(pool: Pg.Pool): PostgresPool {
  return {
    connect: async () => byCallback(await pool.connect()),
    end: () => pool.end(),
  }
}

function byCallback(client: Pg.PoolClient): PostgresPoolClient {
  const query = (sql: string, parameters: readonly unknown[]) =>
    new Promise<PostgresQueryResult<unknown>>((resolve, reject) => {
      client.query(sql, [...parameters], (error, result) => {
        if (error) reject(error)
        else resolve(result as unknown as PostgresQueryResult<unknown>)
      })
    })
  return {
    // Kysely's other form, a cursor, is for streamed results, which nothing here asks for.
    query: query as PostgresPoolClient['query'],
    release: () => client.release(),
  }
}
