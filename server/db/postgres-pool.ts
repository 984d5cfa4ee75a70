import type { PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely'
import type Pg from 'pg'

/**
 * The pool as Kysely sees it, with every query given to pg with a callback instead of through
 * the promise pg makes when it has none.
 *
 * Why: through pg's own promise, the rows of the audit log's reads reached V8's old generation,
 * which only a full collection empties, though nothing kept them past their read. A year's CSV
 * export grew the server's RSS by 105 MB at 49,854 rows/s; with a callback, by 5.7 MB at 94,203
 * rows/s (npm run bench -- --only scale; docs/performance.md). What in pg's promise does it was not
 * found.
 */
export function queriesByCallback(pool: Pg.Pool): PostgresPool {
  // One wrapper per pg client: Kysely keeps a connection per client it is handed (a WeakMap keyed
  // by it), made once, so the same client must come back as the same object.
  const wrappers = new WeakMap<Pg.PoolClient, PostgresPoolClient>()
  return {
    connect: async () => {
      const client = await pool.connect()
      const known = wrappers.get(client)
      if (known) return known
      const wrapper = byCallback(client)
      wrappers.set(client, wrapper)
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
