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
 * rows: about 640 MB against 5 MB promoted, and through Kysely 722 MB against 13 MB), though a
 * heap snapshot in the middle of the first held only the rows of the current read. npm run bench
 * -- --only scale measures the export's RSS (docs/performance.md).
 */
export function queriesByCallback(pool: Pg.Pool): PostgresPool {
  // One wrapper per pg client: Kysely keeps a connection per client it is handed (a WeakMap keyed
  // by it), made once, so the same client must come back as the same object.
  const wrappers = new WeakMap<Pg.PoolClient, PostgresPoolClient>()
  return {
    connect: async () => {
      const client = await pool.connect()
      let wrapper = wrappers.get(client)
      if (!wrapper) wrappers.set(client, (wrapper = byCallback(client)))
      return wrapper
    },
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
