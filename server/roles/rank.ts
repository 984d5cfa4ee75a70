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

/** Whether the holder of this role outranks the caller (read in the caller's transaction). */
export async function roleOutranks(db: Db, roleId: string, actor: Access): Promise<boolean> {
  if (actor.roleId === BUILT_IN_ROLE_IDS.admin) return false
  const permissions = (await permissionsOfRoles(db, [roleId])).get(roleId)!
  return outranks(permissions, actor)
}
