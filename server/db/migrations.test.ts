import assert from 'node:assert/strict'
import { it } from 'node:test'
import { migrationNameOrder, migrationProvider } from './migrations'

it('orders the migrations by name as Kysely’s localeCompare did, their dates first', async () => {
  const names = Object.keys(await migrationProvider('sqlite').getMigrations())
  for (const name of names) assert.match(name, /^\d{4}-\d{2}-\d{2}-\d{4}-[a-z0-9-]+$/, name)
  const byLocale = [...names].sort((a, b) => a.localeCompare(b))
  assert.deepEqual([...names].sort(migrationNameOrder), byLocale)
  // The order they run in is the order they are written in (migrations.ts and the modules it
  // spreads in): a later migration given an earlier date would run before its elders.
  assert.deepEqual(names, byLocale)
})
