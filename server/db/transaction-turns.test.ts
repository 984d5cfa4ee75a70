import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { Kysely, sql } from 'kysely'
import { turnsDuring } from '../test/helpers'
import { EmbeddedDialect, LOOP_TURN_EVERY_MS } from './sqlite-dialect'
import { openSqlite } from './sqlite-database'

/**
 * A long transaction on the embedded database lets the event loop turn between its statements
 * (sqlite-dialect.ts, LOOP_TURN_EVERY_MS): SQLite runs each on this thread, and a transaction
 * keeps the connection to its end, so without the turns a request writing many rows held every
 * other request, /healthz too, until its COMMIT.
 */
describe('a transaction on the embedded database', () => {
  it(`lets the event loop turn between its statements, every ${LOOP_TURN_EVERY_MS} ms of them`, async () => {
    const db = new Kysely<{ t: { n: number } }>({
      dialect: new EmbeddedDialect(openSqlite(':memory:')),
    })
    try {
      await sql`create table t (n integer)`.execute(db)
      // Twenty thousand statements take far longer than LOOP_TURN_EVERY_MS on any machine this
      // runs on (a Kysely query alone costs microseconds), and a slower one only turns more.
      const statements = 20_000
      let turns = 0
      await db.transaction().execute(async (trx) => {
        await trx.insertInto('t').values({ n: 0 }).execute()
        turns = await turnsDuring(async () => {
          for (let n = 1; n < statements; n++) await trx.insertInto('t').values({ n }).execute()
        })
      })
      assert.ok(turns >= 2, `${turns} turns`)
      const { rows } = await sql<{ count: number }>`select count(*) as count from t`.execute(db)
      assert.equal(rows[0]!.count, statements)
    } finally {
      await db.destroy()
    }
  })
})
