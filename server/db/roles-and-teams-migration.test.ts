import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { Migrator } from 'kysely'
import { BUILT_IN_ROLE_IDS } from '../../common/permissions'
import { nameSortKey } from '../../common/name-order'
import { connect, migrate } from './database'
import { migrationProvider } from './migrations'
import type { Db } from './database'
import type { Engine } from './portable-sql'
import { scratchPostgres, testStoreName } from '../test/test-database'

/** The 0700 migration: the built-in roles, and every existing account given the one it had. */
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

describe(`the roles-and-teams migration (${testStoreName()})`, () => {
  it('makes the built-in roles and gives admins Administrador and staff Equipe', async () => {
    const { error } = await new Migrator({
      db,
      provider: migrationProvider(engine),
    }).migrateTo('2026-11-26-0600-provider-links')
    assert.ifError(error)
    const people = [
      ['Ana', 'admin'],
      ['Bia', 'staff'],
      ['Caio', 'staff'],
    ] as const
    for (const [name, role] of people) {
      // The rows as the 0600 migration left the table (no role_id yet), hence the cast.
      await db
        .insertInto('accounts')
        .values({
          id: crypto.randomUUID(),
          name,
          name_sort_key: nameSortKey(name),
          email: `${name.toLowerCase()}@example.com`,
          password_hash: 'x',
          role,
          status: 'active',
        } as never)
        .execute()
    }

    await migrate(db, engine)

    const roles = await db
      .selectFrom('roles')
      .select(['id', 'name', 'scope', 'built_in'])
      .orderBy('id')
      .execute()
    assert.deepEqual(
      roles.map((role) => ({ ...role, built_in: Boolean(role.built_in) })),
      [
        { id: BUILT_IN_ROLE_IDS.admin, name: 'Administrador', scope: 'all', built_in: true },
        { id: BUILT_IN_ROLE_IDS.staff, name: 'Equipe', scope: 'all', built_in: true },
      ],
    )
    const accounts = await db
      .selectFrom('accounts')
      .select(['name', 'role', 'role_id', 'team_id'])
      .orderBy('name')
      .execute()
    assert.deepEqual(accounts, [
      { name: 'Ana', role: 'admin', role_id: BUILT_IN_ROLE_IDS.admin, team_id: null },
      { name: 'Bia', role: 'staff', role_id: BUILT_IN_ROLE_IDS.staff, team_id: null },
      { name: 'Caio', role: 'staff', role_id: BUILT_IN_ROLE_IDS.staff, team_id: null },
    ])
  })

  it('refuses a role name that differs from another only in case, and an unknown role', async () => {
    await assert.rejects(
      db
        .insertInto('roles')
        .values({
          id: crypto.randomUUID(),
          name: 'ADMINISTRADOR',
          name_key: 'administrador',
          description: '',
          scope: 'all',
        })
        .execute(),
    )
    await assert.rejects(
      db
        .updateTable('accounts')
        .set({ role_id: crypto.randomUUID() })
        .where('name', '=', 'Bia')
        .execute(),
    )
  })

  it('leaves the people of a deleted team with no team', async () => {
    const teamId = crypto.randomUUID()
    await db
      .insertInto('teams')
      .values({ id: teamId, name: 'Vendas', name_key: 'vendas', description: '' })
      .execute()
    await db.updateTable('accounts').set({ team_id: teamId }).where('name', '=', 'Caio').execute()
    await db.deleteFrom('teams').where('id', '=', teamId).execute()
    const caio = await db
      .selectFrom('accounts')
      .select('team_id')
      .where('name', '=', 'Caio')
      .executeTakeFirstOrThrow()
    assert.equal(caio.team_id, null)
  })
})
