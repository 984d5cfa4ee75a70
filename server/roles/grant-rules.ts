import type { Access } from '../../common/api/roles'
import type { Permission, RoleScope } from '../../common/permissions'

/**
 * What a person may hand on (docs/roles-and-teams.md): nobody gives a role more than their own
 * role allows, in permissions or in reach, so a permission to assign roles or shape them is no
 * way to more power. Administrador holds everything, so an admin may grant any role.
 */

/** Seeing the people one acts on comes with acting on them: every staff.* brings staff.view. */
export function effectivePermissions(held: readonly Permission[]): Permission[] {
  const implied = held.some((permission) => permission.startsWith('staff.'))
  return implied && !held.includes('staff.view') ? ['staff.view', ...held] : [...held]
}

/**
 * Whether `actor` may give someone (or shape) a role with these permissions and scope: every
 * permission is one the actor holds, and a team-scoped actor hands on no reach beyond a team.
 * A role that allows nothing (Equipe) reaches nobody, whatever its scope.
 */
export function mayGrant(
  actor: Pick<Access, 'permissions' | 'scope'>,
  role: { permissions: readonly Permission[]; scope: RoleScope },
): boolean {
  const held = new Set(actor.permissions)
  const granted = effectivePermissions(role.permissions)
  if (!granted.every((permission) => held.has(permission))) return false
  return actor.scope === 'all' || role.scope === 'team' || granted.length === 0
}

/** Whether `actor` may put someone in this team (null: none): a team-scoped one, only their own. */
export function mayPlaceIn(
  actor: Pick<Access, 'scope' | 'teamId'>,
  teamId: string | null,
): boolean {
  return actor.scope === 'all' || (actor.teamId !== null && teamId === actor.teamId)
}
