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
