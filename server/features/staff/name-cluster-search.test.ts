import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { Kysely, type CompiledQuery } from 'kysely'
import type { StaffQuery } from '../../../common/api/staff'
import { BUILT_IN_ROLE_IDS } from '../../../common/permissions'
import { migrate } from '../../db/database'
import { nameColumns } from '../../db/name-columns'
import { roleColumns } from '../../db/role-columns'
import type { Schema } from '../../db/schema'
import { EmbeddedDialect } from '../../db/sqlite-dialect'
import { openSqlite } from '../../db/sqlite-database'
import { ADMIN_ACCESS } from '../../test/sample-roles'
import { listStaff, SEARCH_WINDOW } from './staff-list'

/**
 * SQLite: a search for a first name in name order. Its matches sit together in the order (every
 * "maria" under m), past the window a search first reads from the list's start, and the page is
 * read from a window at the first match's key (staff-list.ts, inNameOrder) instead of looking the
 * matches up one by one in `accounts`: at 100k people, "maria" looked up all 2,149 of its matches
 * for the page of the 81 awaiting approval. PostgreSQL sorts a search's matches its own way.
 */

/** More people before the first Maria than the first window reads. */
const BEFORE = SEARCH_WINDOW + 40
const MARIAS = 30

let db: Kysely<Schema>
let captured: CompiledQuery[] = []

before(async () => {
  db = new Kysely<Schema>({
    dialect: new EmbeddedDialect(openSqlite(':memory:')),
    log: (event) => {
      if (event.level === 'query') captured.push(event.query)
    },
  })
  await migrate(db, 'sqlite')
  const people = [
    ...Array.from({ length: BEFORE }, (_, index) => `Ana Lima ${String(index).padStart(4, '0')}`),
    ...Array.from(
      { length: MARIAS },
      (_, index) => `María Souza ${String(index).padStart(2, '0')}`,
    ),
    ...Array.from({ length: 40 }, (_, index) => `Tereza Dias ${String(index).padStart(2, '0')}`),
  ]
  // Awaiting approval: the default order's first segment, as at 100k people.
  const rows = people.map((name, index) => ({
    id: crypto.randomUUID(),
    ...nameColumns(name),
    email: `pessoa${index}@clusters.example.com`,
    password_hash: 'x',
    ...roleColumns(BUILT_IN_ROLE_IDS.staff),
    status: 'pending' as const,
  }))
  for (let start = 0; start < rows.length; start += 500) {
    await db
      .insertInto('accounts')
      .values(rows.slice(start, start + 500))
      .execute()
  }
})
after(() => db.destroy())

async function page(query: StaffQuery) {
  captured = []
  const list = await listStaff(db, { q: 'maria', pageSize: '4', ...query }, ADMIN_ACCESS)
  // A look-up of the search index's matches in `accounts` (staff-search.ts, indexedUpTo).
  const lookUps = captured.filter((each) => /select account_search\.account_id/.test(each.sql))
  return {
    names: list.items.map((item) => item.name),
    next: list.next,
    previous: list.previous,
    lookUps,
  }
}

describe('a first name searched in name order (SQLite)', () => {
  for (const [label, query] of [
    ['the default order', {}],
    ['by name', { sort: 'name' }],
  ] satisfies [string, StaffQuery][]) {
    it(`${label}: its pages come from the window at the first match, no match looked up`, async () => {
      const first = await page(query)
      assert.deepEqual(first.names, [
        'María Souza 00',
        'María Souza 01',
        'María Souza 02',
        'María Souza 03',
      ])
      assert.equal(first.lookUps.length, 0, first.lookUps.map((each) => each.sql).join('\n'))
      const second = await page({ ...query, after: first.next! })
      assert.deepEqual(second.names, [
        'María Souza 04',
        'María Souza 05',
        'María Souza 06',
        'María Souza 07',
      ])
      assert.equal(second.lookUps.length, 0)
      // Back from the second page: the other way from the cursor's key. (Whether a Maria comes
      // before the first is then asked of the search index.)
      const back = await page({ ...query, before: second.previous! })
      assert.deepEqual(back.names, first.names)
    })
  }

  it('the last Marias: the window from the cursor holds fewer than a page, and the page ends with them', async () => {
    let list = await page({ sort: 'name', pageSize: '7' })
    const seen = [...list.names]
    while (list.next) {
      list = await page({ sort: 'name', pageSize: '7', after: list.next })
      seen.push(...list.names)
    }
    assert.deepEqual(
      seen,
      Array.from({ length: MARIAS }, (_, index) => `María Souza ${String(index).padStart(2, '0')}`),
    )
  })
})
