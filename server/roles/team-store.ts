import { setImmediate as nextTurn } from 'node:timers/promises'
import { sql } from 'kysely'
import type { TeamItem } from '../../common/api/roles'
import type { Db } from '../db/database'
import { bytewise, engineOf } from '../db/portable-sql'

/**
 * The teams, each with its managers: its members whose role is scoped to the team and may
 * approve its registrations (they are who a registration to the team waits for).
 */

/** The condition on `accounts` (joined to its role) that makes a member a team manager. */
export const isTeamManagerSql = sql<boolean>`(roles.scope = 'team' and exists (
  select 1 from role_permissions
  where role_permissions.role_id = roles.id and role_permissions.permission = 'staff.approve'))`

export async function listTeams(db: Db, only?: string): Promise<TeamItem[]> {
  let query = db
    .selectFrom('teams')
    .select([
      'teams.id',
      'teams.name',
      'teams.description',
      'teams.open',
      sql<number | string>`(select count(*) from accounts where accounts.team_id = teams.id)`.as(
        'members',
      ),
    ])
    .orderBy('teams.name_key')
  if (only) query = query.where('teams.id', '=', only)
  const rows = await query.execute()
  if (rows.length === 0) return []
  const managers = await db
    .selectFrom('accounts')
    .innerJoin('roles', 'roles.id', 'accounts.role_id')
    .select(['accounts.id', 'accounts.name', 'accounts.team_id'])
    .where(
      'accounts.team_id',
      'in',
      rows.map((row) => row.id),
    )
    .where('accounts.status', '=', 'active')
    .where(isTeamManagerSql)
    .orderBy(bytewise(engineOf(db), 'accounts.name_sort_key'))
    .execute()
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    description: row.description,
    open: Boolean(row.open),
    managers: managers
      .filter((manager) => manager.team_id === row.id)
      .map(({ id, name }) => ({ id, name })),
    memberCount: Number(row.members),
  }))
}

export async function findTeamItem(db: Db, id: string): Promise<TeamItem | undefined> {
  return (await listTeams(db, id))[0]
}

/** The open teams a registration may name: id and name only. */
export function listOpenTeams(db: Db): Promise<{ id: string; name: string }[]> {
  return db
    .selectFrom('teams')
    .select(['id', 'name'])
    .where('open', '=', true)
    .orderBy('name_key')
    .execute()
}

/**
 * The team's row, locked to the end of the transaction (an UPDATE that changes nothing:
 * PostgreSQL holds the row lock, SQLite its write lock), answered as the last committed change
 * left it; undefined when there is no such team. Every change of a team takes it first: a
 * Group's change and a team's deletion then take the admins' lock
 * (accounts/account-administration.ts, lockAdminChanges), in that order.
 */
export function lockTeam(trx: Db, id: string) {
  return trx
    .updateTable('teams')
    .set((set) => ({ name: set.ref('name') }))
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst()
}

/** How many people one statement of moveMembersOut takes out of a team. */
const MOVE_BATCH = 100

/**
 * Takes everyone out of a team about to be deleted (they keep their accounts, with no team) and
 * answers how many there were, in the transaction that deletes it, after lockTeam. The team's
 * foreign key moves them in the delete's one statement: a team of 11,975 people (of the 100k
 * npm run bench -- --only scale's seeding code makes) held SQLite's event loop 317-607 ms that
 * way. On SQLite they go first, a hundred a statement with a turn of the loop between (4.6 ms at
 * most, 351-364 ms in all). PostgreSQL holds no loop: they are counted, and the delete moves
 * them (2.2-2.4 s there, against 3.4-4.0 s in batches or in an UPDATE of their own; by hand,
 * 2026-12-01).
 */
export async function moveMembersOut(trx: Db, teamId: string): Promise<number> {
  if (engineOf(trx) === 'postgres') {
    const { count } = await trx
      .selectFrom('accounts')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('team_id', '=', teamId)
      .executeTakeFirstOrThrow()
    return Number(count)
  }
  let moved = 0
  for (;;) {
    const { numUpdatedRows } = await trx
      .updateTable('accounts')
      .set({ team_id: null })
      .where('id', 'in', (eb) =>
        eb.selectFrom('accounts').select('id').where('team_id', '=', teamId).limit(MOVE_BATCH),
      )
      .executeTakeFirst()
    moved += Number(numUpdatedRows)
    if (Number(numUpdatedRows) < MOVE_BATCH) return moved
    await nextTurn()
  }
}
