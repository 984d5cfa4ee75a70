import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { BUILT_IN_ROLE_IDS } from '../../common/permissions'
import { nameSortKey } from '../../common/name-order'
import { migrate } from './database'
import { testStoreName, unmigratedTestDatabaseForFile } from '../test/test-database'

/** The 0700 migration: the built-in roles, and every existing account given the one it had. */
const store = unmigratedTestDatabaseForFile()

describe(`the roles-and-teams migration (${testStoreName()})`, () => {
  it('makes the built-in roles and gives admins Administrador and staff Equipe', async () => {
    await store.migrateTo('2026-11-26-0600-provider-links')
    const people = [
      ['Ana', 'admin'],
      ['Bia', 'staff'],
      ['Caio', 'staff'],
    ] as const
    for (const [name, role] of people) {
      // The rows as the 0600 migration left the table (no role_id yet), hence the cast.
      await store.db
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

    await migrate(store.db, store.engine)

    const roles = await store.db
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
    const accounts = await store.db
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
      store.db
        .insertInto('roles')
        .values({
          id: crypto.randomUUID(),
          name: 'ADMINISTRADOR',
          name_key: 'administrador',
          description: '',
          scope: 'all',
        })
        .execute(),
      /unique/i,
    )
    await assert.rejects(
      store.db
        .updateTable('accounts')
        .set({ role_id: crypto.randomUUID() })
        .where('name', '=', 'Bia')
        .execute(),
      /foreign key/i,
    )
  })

  it('leaves the people of a deleted team with no team', async () => {
    const teamId = crypto.randomUUID()
    await store.db
      .insertInto('teams')
      .values({ id: teamId, name: 'Vendas', name_key: 'vendas', description: '' })
      .execute()
    await store.db
      .updateTable('accounts')
      .set({ team_id: teamId })
      .where('name', '=', 'Caio')
      .execute()
    await store.db.deleteFrom('teams').where('id', '=', teamId).execute()
    const caio = await store.db
      .selectFrom('accounts')
      .select('team_id')
      .where('name', '=', 'Caio')
      .executeTakeFirstOrThrow()
    assert.equal(caio.team_id, null)
  })
})
