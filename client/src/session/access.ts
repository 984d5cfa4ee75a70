import type { SignedInUser } from '../../../common/api/account'
import type { Access } from '../../../common/api/roles'
import { PERMISSIONS, type Permission, type RoleScope } from '../../../common/permissions'

/**
 * GET /api/auth/me's user. `access` may be missing: a backend behind API_UPSTREAM that predates
 * roles answers `role` alone.
 */
export type UserWithAccess = Omit<SignedInUser, 'access'> & { access?: Access }

/** What the signed-in person may do, as the screens ask it. The server is the judge anyway. */
export interface ViewerAccess {
  can: (permission: Permission) => boolean
  /** Whether the role holds any of these (a screen with several actions, one of them enough). */
  canAny: (...permissions: Permission[]) => boolean
  /** `team`: the permissions reach only the people of the viewer's own team. */
  scope: RoleScope
  /** The role's id; null from a backend without roles. */
  roleId: string | null
  /** The role's name as the server gives it; null from a backend without roles. */
  roleName: string | null
  teamId: string | null
  teamName: string | null
  /** False when the backend answered `role` alone (an older one behind API_UPSTREAM). */
  hasRoles: boolean
}

const EVERY: ReadonlySet<Permission> = new Set(PERMISSIONS)
const NONE: ReadonlySet<Permission> = new Set()

function viewer(
  permissions: ReadonlySet<Permission>,
  rest: Omit<ViewerAccess, 'can' | 'canAny'>,
): ViewerAccess {
  return {
    can: (permission) => permissions.has(permission),
    canAny: (...wanted) => wanted.some((permission) => permissions.has(permission)),
    ...rest,
  }
}

/**
 * The viewer's access from GET /api/auth/me. Without `access` (a backend from before roles) the
 * old two roles stand: an admin may do everything, anyone else nothing but their own account.
 * A permission the client does not know (a newer server) is ignored rather than trusted.
 */
export function accessOf(user: UserWithAccess | null): ViewerAccess {
  if (!user) {
    return viewer(NONE, {
      scope: 'all',
      roleId: null,
      roleName: null,
      teamId: null,
      teamName: null,
      hasRoles: false,
    })
  }
  const { access } = user
  if (!access) {
    return viewer(user.role === 'admin' ? EVERY : NONE, {
      scope: 'all',
      roleId: null,
      roleName: null,
      teamId: null,
      teamName: null,
      hasRoles: false,
    })
  }
  const known = access.permissions.filter((permission) => EVERY.has(permission))
  return viewer(new Set(known), {
    scope: access.scope,
    roleId: access.roleId,
    roleName: access.roleName,
    teamId: access.teamId,
    teamName: access.teamName,
    hasRoles: true,
  })
}
