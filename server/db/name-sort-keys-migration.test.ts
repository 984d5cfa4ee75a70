import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { Migrator } from 'kysely'
import { nameSortKey } from '../../common/name-order'
import { connect, migrate } from './database'
import { migrationProvider } from './migrations'
import type { Db } from './database'
import type { Engine } from './portable-sql'
import { scratchPostgres, testStoreName } from '../test/test-database'

/** The 0500 migration: accounts that existed before it get their names' sort keys. */
let db: Db
let engine: Engine
let drop = async () => {}
before(async () => {
  const serverUrl = process.env.TEST_DATABASE_URL
  if (serverUrl) {
    const scratch = await scratchPostgres(serverUrl)
    db = connect({ postgresUrl: scratch.url })
    engine = 'postgres'
    drop = scratch.drop
  } else {
    db = connect({ sqliteFile: ':memory:' })
    engine = 'sqlite'
  }
})
after(async () => {
  await db.destroy()
  await drop()
})

describe(`the name-sort-keys migration (${testStoreName()})`, () => {
  it('gives every existing account the sort key of its name', async () => {
    const { error } = await new Migrator({
      db,
      provider: migrationProvider(engine),
    }).migrateTo('2026-11-25-0400-pending-invitations')
    assert.ifError(error)
    const names = ['Úrsula Reis', 'João', 'ÉDER', 'Çirilo']
    const accounts = names.map((name, index) => ({
      id: crypto.randomUUID(),
      name,
      email: `pessoa-${index}@example.com`,
      password_hash: 'x',
      role: 'staff' as const,
      status: 'active' as const,
    }))
    // The rows as the 0400 migration left the table (no name_sort_key yet), hence the cast.
    for (const account of accounts)
      await db
        .insertInto('accounts')
        .values(account as never)
        .execute()

    await migrate(db, engine)

    const rows = await db.selectFrom('accounts').select(['name', 'name_sort_key']).execute()
    assert.deepEqual(
      Object.fromEntries(rows.map((row) => [row.name, row.name_sort_key])),
      Object.fromEntries(names.map((name) => [name, nameSortKey(name)])),
    )
    assert.deepEqual(rows.map((row) => row.name_sort_key).sort(), [
      'cirilo',
      'eder',
      'joao',
      'ursula reis',
    ])
  })
})
