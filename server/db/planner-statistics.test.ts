import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { Kysely, sql, type CompiledQuery } from 'kysely'
import type { Access } from '../../common/api/roles'
import { BUILT_IN_ROLE_IDS } from '../../common/permissions'
import { listStaff } from '../features/staff/staff-list'
import { createFixtureDist, type FixtureDist } from '../test/fixture-dist'
import { testApp } from '../test/helpers'
import { testDatabase } from '../test/test-database'
import { migrate, type Db } from './database'
import { nameColumns } from './name-columns'
import { refreshPlannerStatistics } from './planner-statistics'
import { roleColumns } from './role-columns'
import type { Schema } from './schema'
import { EmbeddedDialect } from './sqlite-dialect'
import { openSqlite } from './sqlite-database'

/**
 * SQLite's planner, given statistics, reads "Ativos" by creation along the order's index rather
 * than every active account through the status index and a sort (planner-statistics.ts); the
 * server gathers them at start, and again when the accounts have doubled or halved. PostgreSQL
 * keeps its own: nothing to do there.
 */
const skip = process.env.TEST_DATABASE_URL ? 'SQLite only' : false
const ADMIN: Access = {
  roleId: BUILT_IN_ROLE_IDS.admin,
  roleName: 'Administrador',
  scope: 'all',
  permissions: [],
  teamId: null,
  teamName: null,
}

/** Most people active, as in an organisation: the status selects most of the table. */
async function fill(db: Db, count = 2000) {
  const first = Number(
    (await sql<{ n: number }>`select count(*) as n from accounts`.execute(db)).rows[0]!.n,
  )
  const rows = Array.from({ length: count }, (_, at) => first + at).map((index) => ({
    id: crypto.randomUUID(),
    ...nameColumns(`Pessoa ${index}`),
    email: `p${index}@estatisticas.example.com`,
    password_hash: 'x',
    ...roleColumns(BUILT_IN_ROLE_IDS.staff),
    status: index % 10 === 0 ? ('pending' as const) : ('active' as const),
    created_at: new Date(Date.parse('2025-01-01T00:00:00Z') + index * 60_000),
  }))
  for (let start = 0; start < rows.length; start += 500)
    await db
      .insertInto('accounts')
      .values(rows.slice(start, start + 500))
      .execute()
}

const analysed = async (db: Db) =>
  (
    await sql<{ count: number }>`select count(*) as count from sqlite_master
      where name = 'sqlite_stat1'`.execute(db)
  ).rows[0]!.count > 0

describe('the query planner’s statistics', { skip }, () => {
  let db: Kysely<Schema>
  let captured: CompiledQuery[] | null = null
  before(async () => {
    db = new Kysely<Schema>({
      dialect: new EmbeddedDialect(openSqlite(':memory:')),
      log: (event) => void captured?.push(event.query),
    })
    await migrate(db, 'sqlite')
    await fill(db)
  })
  after(() => db.destroy())

  /** The plan of the query that reads the page of "Ativos" by creation. */
  async function planOfActiveByCreation(): Promise<string> {
    captured = []
    const page = await listStaff(db, { status: 'active', sort: 'createdAt', pageSize: '4' }, ADMIN)
    const [query] = captured.filter((each) => /"accounts"\."id"/.test(each.sql))
    captured = null
    assert.equal(page.items.length, 4)
    const { rows } = await db.executeQuery<{ detail: string }>({
      ...query!,
      sql: `explain query plan ${query!.sql}`,
    })
    return rows.map((row) => row.detail).join('\n')
  }

  it('analyses a database never analysed, and the page is then read along its order', async () => {
    assert.equal(await analysed(db), false)
    const guessed = await planOfActiveByCreation()
    assert.match(guessed, /accounts_shown_status/, 'without statistics, the status index')
    assert.match(guessed, /USE TEMP B-TREE FOR ORDER BY/, guessed)

    assert.equal(await refreshPlannerStatistics(db), true)
    assert.equal(await analysed(db), true)
    const weighed = await planOfActiveByCreation()
    assert.match(weighed, /accounts_order_created/, weighed)
    assert.doesNotMatch(weighed, /TEMP B-TREE/, weighed)
  })

  it('analyses again only when the number of accounts has doubled or halved', async () => {
    assert.equal(await refreshPlannerStatistics(db), false, 'nothing changed')
    await fill(db, 50)
    assert.equal(await refreshPlannerStatistics(db), false, 'a few more')
    await fill(db, 2100)
    assert.equal(await refreshPlannerStatistics(db), true, 'twice as many')
    assert.equal(await refreshPlannerStatistics(db), false)
    await db.deleteFrom('accounts').where('name', 'like', 'Pessoa 1%').execute()
    await db.deleteFrom('accounts').where('name', 'like', 'Pessoa 2%').execute()
    await db.deleteFrom('accounts').where('name', 'like', 'Pessoa 3%').execute()
    assert.equal(await refreshPlannerStatistics(db), true, 'half as many')
  })
})

describe('the server gathers them at start', { skip }, () => {
  let dist: FixtureDist
  before(async () => {
    dist = await createFixtureDist()
  })
  after(() => dist.cleanup())

  it('a database with no statistics has them once the server is ready', async () => {
    const database = await testDatabase()
    await fill(database.db)
    assert.equal(await analysed(database.db), false)
    const { app } = await testApp(dist.distDir, { database })
    await app.ready()
    assert.equal(await analysed(database.db), true)
    await app.close()
    await database.close()
  })
})
