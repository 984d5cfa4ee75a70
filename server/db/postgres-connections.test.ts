import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { sql } from 'kysely'
import pg from 'pg'
import { createFixtureDist, type FixtureDist } from '../test/fixture-dist'
import { testApp } from '../test/helpers'
import { scratchPostgres, testDatabaseLocation, withPostgresClient } from '../test/test-database'
import { connect, openDatabase } from './database'
import { queriesByCallback } from './postgres-pool'

/**
 * PostgreSQL ends connections on its own: a restart, a fail-over, pg_terminate_backend,
 * idle_session_timeout. pg's pool reports an idle connection's end as an 'error' event on itself,
 * which ends the process when nobody listens. These tests end the server side of the pool's
 * connections and check that the process goes on, says so in its log, and answers with a new
 * connection. Only with TEST_DATABASE_URL (the embedded engine has no server to lose).
 */
const serverUrl = process.env.TEST_DATABASE_URL
const needsPostgres = serverUrl ? false : 'needs TEST_DATABASE_URL (a PostgreSQL server)'

/** Ends every other connection to the database at `url`, as an administrator would. */
function terminateConnectionsTo(url: string): Promise<number> {
  return withPostgresClient(serverUrl ?? '', async (admin) => {
    const result = await admin.query<{ ended: boolean }>(
      `select pg_terminate_backend(pid) as ended from pg_stat_activity
       where datname = $1 and pid <> pg_backend_pid()`,
      [new URL(url).pathname.slice(1)],
    )
    return result.rows.filter((row) => row.ended).length
  })
}

async function eventually(check: () => boolean, what: string, limitMs = 5000): Promise<void> {
  const deadline = Date.now() + limitMs
  while (!check()) {
    if (Date.now() > deadline) assert.fail(`not within ${limitMs} ms: ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

describe('PostgreSQL connections ended by the server', { skip: needsPostgres }, () => {
  it('an idle connection ended by the server is reported, and the next query opens a new one', async () => {
    const scratch = await scratchPostgres(serverUrl ?? '')
    const lost: Error[] = []
    const database = await openDatabase(
      { postgresUrl: scratch.url },
      { onConnectionLost: (error) => lost.push(error) },
    )
    try {
      await sql`select 1`.execute(database.db)
      assert.ok((await terminateConnectionsTo(scratch.url)) >= 1, 'the pool had a connection')
      await eventually(() => lost.length > 0, 'the lost connection is reported')
      assert.match(String(lost[0]?.message), /terminat/)
      const { rows } = await sql<{ answer: number }>`select 41 + 1 as answer`.execute(database.db)
      assert.equal(Number(rows[0]?.answer), 42)
    } finally {
      await database.close()
      await scratch.drop()
    }
  })

  describe('the server on DATABASE_URL', () => {
    let dist: FixtureDist
    before(async () => {
      dist = await createFixtureDist()
    })
    after(() => dist.cleanup())

    it('logs the lost connection as a warning and stays ready', async () => {
      const location = await testDatabaseLocation()
      const { app, logLines } = await testApp(dist.distDir, {
        databaseUrl: location.databaseUrl,
        dataDir: location.dataDir,
        logLevel: 'warn',
      })
      try {
        assert.equal((await app.inject({ method: 'GET', url: '/readyz' })).statusCode, 200)
        // Every connection idle in the pool: pg reports an idle one's end to the pool (the warning),
        // and a busy one's to its query. Ready, the app starts its mail sender, whose first pass
        // could hold a connection while it is ended, and then one warning would never come.
        await app.mailOutbox?.stop()
        const ended = await terminateConnectionsTo(location.databaseUrl ?? '')
        assert.ok(ended >= 1)
        const warnings = () =>
          logLines().filter((line) => String(line.msg).includes('PostgreSQL connection was lost'))
        // One warning per connection the pool held. The backends end one by one; until the last
        // is reported, a query may still be handed a connection whose end is on its way (a busy
        // CI machine answered /readyz 503 from one).
        await eventually(() => warnings().length >= ended, 'a warning for each lost connection')
        assert.equal(warnings()[0]?.level, 40)
        assert.equal((await app.inject({ method: 'GET', url: '/readyz' })).statusCode, 200)
      } finally {
        await app.close()
        await location.cleanup()
      }
    })
  })
})

// connect() hands Kysely a pool whose queries go to pg with a callback (postgres-pool.ts says
// why): what a query answers, and how it fails, must be what pg's own promise gave.
describe('queries through the pool Kysely is given', { skip: needsPostgres }, () => {
  it('bring every row of a large answer back in order, and fail with the database’s error', async () => {
    const scratch = await scratchPostgres(serverUrl ?? '')
    const db = connect({ postgresUrl: scratch.url })
    try {
      const { rows } = await sql<{ n: number }>`
        select n from generate_series(1, ${5000}::int) as n order by n`.execute(db)
      assert.equal(rows.length, 5000)
      assert.ok(rows.every((row, at) => Number(row.n) === at + 1))

      await assert.rejects(sql`select * from not_a_table`.execute(db), { code: '42P01' })
      // The connection went back to the pool: the next query gets one.
      const again = await sql<{ answer: number }>`select 41 + 1 as answer`.execute(db)
      assert.equal(Number(again.rows[0]?.answer), 42)
    } finally {
      await db.destroy()
      await scratch.drop()
    }
  })

  it('hands Kysely the same object each time pg hands back the same connection', async () => {
    const pool = queriesByCallback(new pg.Pool({ connectionString: serverUrl ?? '', max: 1 }))
    try {
      const first = await pool.connect()
      first.release()
      const second = await pool.connect()
      second.release()
      assert.equal(second, first)
    } finally {
      await pool.end()
    }
  })
})
