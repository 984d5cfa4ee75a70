import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { sql } from 'kysely'
import { BUILT_IN_ROLE_IDS } from '../../common/permissions'
import { migrate } from './database'
import { nameColumns } from './name-columns'
import { roleColumns } from './role-columns'
import { testStoreName, unmigratedTestDatabaseForFile } from '../test/test-database'

/**
 * The 4209 migration (list-migrations.ts): on PostgreSQL, accounts made before it had their
 * creation time to the microsecond (now()); after it every account's is to the millisecond, as
 * Equipe's cursors hold it, whether it was there before or is made after.
 */
const store = unmigratedTestDatabaseForFile()

describe(`creation times to the millisecond (${testStoreName()})`, () => {
  it(
    'cuts the microseconds of the accounts there, and of those made after',
    {
      skip: process.env.TEST_DATABASE_URL
        ? false
        : "SQLite's default is to the millisecond already",
    },
    async () => {
      await store.migrateTo('2026-12-01-4208-locks-on-the-account')
      const account = (label: string) => ({
        id: crypto.randomUUID(),
        ...nameColumns(label),
        email: `${label}@example.com`,
        password_hash: 'x',
        ...roleColumns(BUILT_IN_ROLE_IDS.staff),
        status: 'active' as const,
      })
      const before = account('antes')
      await store.db.insertInto('accounts').values(before).execute()
      await sql`update accounts set created_at = '2026-11-30T10:00:00.123456Z'
        where id = ${before.id}`.execute(store.db)
      await migrate(store.db, store.engine)
      const made = account('depois')
      await store.db.insertInto('accounts').values(made).execute()
      const { rows } = await sql<{ id: string; micros: number }>`
        select id, extract(microseconds from created_at)::integer % 1000 as micros
        from accounts`.execute(store.db)
      assert.deepEqual(
        rows.map((row) => Number(row.micros)),
        [0, 0],
      )
      const kept = await store.db
        .selectFrom('accounts')
        .select('created_at')
        .where('id', '=', before.id)
        .executeTakeFirstOrThrow()
      assert.equal(new Date(kept.created_at).toISOString(), '2026-11-30T10:00:00.123Z')
    },
  )
})
