import type { Access } from '../../common/api/roles'
import type { Permission } from '../../common/permissions'
import type { Db } from '../db/database'
import type { Account } from '../db/schema'
import { effectivePermissions } from './grant-rules'
import { permissionsOfRoles } from './role-store'

/**
 * What a person may do: their role's permissions and scope, and their team. Read afresh on each
 * call that needs it (a role changed a moment ago applies to the next call, not the next
 * sign-in). A role scoped to a team held by someone with no team reaches nobody (team-scope.ts).
 */
export async function loadAccess(
  db: Db,
  account: Pick<Account, 'id' | 'role_id'>,
): Promise<Access> {
  const row = await db
    .selectFrom('accounts')
    .innerJoin('roles', 'roles.id', 'accounts.role_id')
    .leftJoin('teams', 'teams.id', 'accounts.team_id')
    .select([
      'roles.id as roleId',
      'roles.name as roleName',
      'roles.scope',
      'teams.id as teamId',
      'teams.name as teamName',
    ])
    .where('accounts.id', '=', account.id)
    .executeTakeFirst()
  // A row without a role cannot be written (db/schema.ts); were it there, it would allow nothing.
  if (!row) {
    return {
      roleId: account.role_id,
      roleName: '',
      scope: 'team',
      permissions: [],
      teamId: null,
      teamName: null,
    }
  }
  const permissions = (await permissionsOfRoles(db, [row.roleId])).get(row.roleId)!
  return { ...row, permissions: effectivePermissions(permissions) }
}

export const allows = (access: Access, permission: Permission): boolean =>
  access.permissions.includes(permission)
