import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { nameSortKey } from '../../common/name-order'
import { migrate } from './database'
import {
  insertAccountsWithoutSortKeys,
  testStoreName,
  unmigratedTestDatabaseForFile,
} from '../test/test-database'

/** The 0500 migration: accounts that existed before it get their names' sort keys. */
const store = unmigratedTestDatabaseForFile()

describe(`the name-sort-keys migration (${testStoreName()})`, () => {
  it('gives every existing account the sort key of its name', async () => {
    await store.migrateTo('2026-11-25-0400-pending-invitations')
    const names = ['Úrsula Reis', 'João', 'ÉDER', 'Çirilo']
    await insertAccountsWithoutSortKeys(
      store.db,
      names.map((name, index) => ({ name, email: `pessoa-${index}@example.com` })),
    )

    await migrate(store.db, store.engine)

    const rows = await store.db.selectFrom('accounts').select(['name', 'name_sort_key']).execute()
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
