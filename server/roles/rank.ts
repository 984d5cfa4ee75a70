import type { Access } from '../../common/api/roles'
import { BUILT_IN_ROLE_IDS, type Permission } from '../../common/permissions'
import type { Db } from '../db/database'
import { effectivePermissions } from './grant-rules'
import { permissionsOfRoles } from './role-store'

/**
 * Rank (docs/roles-and-teams.md): nobody acts on a person whose role holds a permission their
 * own lacks. Reach alone would let a team's manager disable, reset or sign out an Administrador
 * who sits in the team, and so take over more than their role was given. Administrador holds
 * every permission: it acts on anyone.
 */
export function outranks(
  target: readonly Permission[],
  actor: Pick<Access, 'permissions'>,
): boolean {
  const held = new Set(actor.permissions)
  return effectivePermissions(target).some((permission) => !held.has(permission))
}

/**
 * The roles among these whose holders outrank the caller, read in one query: Equipe's page
 * marks the people nobody may act on with it (outranksYou, common/api/staff.ts), by the rule
 * every action enforces (roleOutranks).
 */
export async function outrankingRoles(
  db: Db,
  roleIds: readonly string[],
  actor: Access,
): Promise<ReadonlySet<string>> {
  if (actor.roleId === BUILT_IN_ROLE_IDS.admin || roleIds.length === 0) return new Set()
  const permissions = await permissionsOfRoles(db, [...new Set(roleIds)])
  return new Set(
    [...permissions].filter(([, held]) => outranks(held, actor)).map(([roleId]) => roleId),
  )
}

/** Whether the holder of this role outranks the caller (read in the caller's transaction). */
export async function roleOutranks(db: Db, roleId: string, actor: Access): Promise<boolean> {
  return (await outrankingRoles(db, [roleId], actor)).has(roleId)
}
