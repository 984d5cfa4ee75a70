import type { StaffChangeBody } from '../../../common/api/staff'
import { STAFF_PERMISSIONS } from '../../../common/staff-permissions'
import type { Access } from '../../../common/api/roles'
import { accountIdFrom } from '../../accounts/account-administration'
import { builtInRoleId } from '../../db/role-columns'
import { mayGrant, mayPlaceIn } from '../../roles/grant-rules'
import { findRole, permissionsOfRoles } from '../../roles/role-store'
import type { Db } from '../../db/database'
import { apiError } from '../../http/errors'
import { missingPermission } from '../../access/operation-access'
import { allows } from '../../roles/access'

/**
 * The checks on a change of someone's role or team (PATCH /staff/:id, an invitation), before
 * anything is written: staff.roles, a role that exists and that the caller may hand on, a team
 * that exists and that the caller may place people in (roles/grant-rules.ts). The role's id
 * normalised, and the team's (null: no team).
 */
export async function checkRoleAndTeam(
  db: Db,
  access: Access,
  change: Pick<StaffChangeBody, 'role' | 'roleId' | 'teamId'>,
): Promise<{ roleId?: string; teamId?: string | null }> {
  const roleId =
    change.roleId !== undefined
      ? accountIdFrom(change.roleId)
      : change.role && builtInRoleId(change.role)
  const teamId =
    change.teamId === undefined || change.teamId === null
      ? change.teamId
      : accountIdFrom(change.teamId)
  if (roleId !== undefined) await checkGrantable(db, access, roleId)
  if (teamId !== undefined) {
    if (teamId !== null) {
      const team = await db
        .selectFrom('teams')
        .select('id')
        .where('id', '=', teamId)
        .executeTakeFirst()
      if (!team) throw apiError(400, 'unknown_team', 'invalid_input')
    }
    if (!mayPlaceIn(access, teamId)) throw apiError(403, 'team_out_of_reach', 'forbidden')
  }
  return { roleId, teamId }
}

/** 400 for a role that does not exist, 403 for one beyond what the caller may hand on. */
export async function checkGrantable(db: Db, access: Access, roleId: string): Promise<void> {
  const role = await findRole(db, roleId)
  if (!role) throw apiError(400, 'unknown_role', 'invalid_input')
  const permissions = (await permissionsOfRoles(db, [role.id])).get(role.id)!
  if (!mayGrant(access, { permissions, scope: role.scope })) {
    throw apiError(403, 'role_not_grantable', 'forbidden')
  }
}

/** Changing someone's role, team or name needs staff.roles. */
export function requireRolesPermission(access: Access): void {
  if (!allows(access, STAFF_PERMISSIONS.changeRoleTeamOrName)) throw missingPermission()
}
