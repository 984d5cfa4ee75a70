import type { RoleItem } from '../../common/api/roles'
import {
  BUILT_IN_ROLE_IDS,
  PERMISSIONS,
  type Permission,
  type RoleScope,
} from '../../common/permissions'
import type { Db } from '../db/database'

/**
 * The roles and what each allows. Administrador holds the whole catalogue without rows in
 * role_permissions (common/permissions.ts may grow; the admins must not lose the new
 * permission), every other role exactly its rows.
 */

export interface RoleRow {
  id: string
  name: string
  description: string
  scope: RoleScope
  built_in: boolean | number
}

/** The catalogue in its own order: the matrix and the answers list permissions so. */
export const inCatalogueOrder = (permissions: Iterable<string>): Permission[] => {
  const held = new Set(permissions)
  return PERMISSIONS.filter((permission) => held.has(permission))
}

/** The permissions of each of these roles, by role id. */
export async function permissionsOfRoles(
  db: Db,
  roleIds: readonly string[],
): Promise<Map<string, Permission[]>> {
  const rows =
    roleIds.length === 0
      ? []
      : await db
          .selectFrom('role_permissions')
          .select(['role_id', 'permission'])
          .where('role_id', 'in', roleIds)
          .execute()
  const byRole = new Map<string, string[]>()
  for (const row of rows)
    byRole.set(row.role_id, [...(byRole.get(row.role_id) ?? []), row.permission])
  return new Map(
    roleIds.map((id) => [
      id,
      id === BUILT_IN_ROLE_IDS.admin ? [...PERMISSIONS] : inCatalogueOrder(byRole.get(id) ?? []),
    ]),
  )
}

const roleColumns = [
  'roles.id',
  'roles.name',
  'roles.description',
  'roles.scope',
  'roles.built_in',
] as const

/**
 * Every role with its people count: built-in first, then by name. The counts are sums of
 * account_tallies' rows (db/list-migrations.ts, 4203), not counts of each role's people: at 100k
 * people (npm run bench -- --only scale's seeding code) those took 6.1 ms on SQLite, with its
 * event loop held, and 6.2 ms on PostgreSQL (by hand, 2026-12-01); Equipe, an account's page and
 * the invitation load this list.
 */
export async function listRoles(db: Db): Promise<RoleItem[]> {
  const [rows, tallies] = await Promise.all([
    db
      .selectFrom('roles')
      .select(roleColumns)
      .orderBy('roles.built_in', 'desc')
      .orderBy('roles.name_key')
      .execute(),
    db
      .selectFrom('account_tallies')
      .select(['role_id', (eb) => eb.fn.sum<number | string>('count').as('people')])
      .groupBy('role_id')
      .execute(),
  ])
  const people = new Map(tallies.map((row) => [row.role_id, Number(row.people)]))
  const permissions = await permissionsOfRoles(
    db,
    rows.map((row) => row.id),
  )
  return rows.map((row) =>
    toRoleItem(row, permissions.get(row.id)!, people.get(row.id.toLowerCase()) ?? 0),
  )
}

export async function findRoleItem(db: Db, id: string): Promise<RoleItem | undefined> {
  return (await listRoles(db)).find((role) => role.id === id)
}

export function findRole(db: Db, id: string): Promise<RoleRow | undefined> {
  return db.selectFrom('roles').select(roleColumns).where('roles.id', '=', id).executeTakeFirst()
}

export function toRoleItem(row: RoleRow, permissions: Permission[], peopleCount: number): RoleItem {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    permissions,
    scope: row.scope,
    // PostgreSQL answers a boolean, SQLite 0 or 1.
    builtIn: Boolean(row.built_in),
    peopleCount,
  }
}
