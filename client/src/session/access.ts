import type { SignedInUser } from '../../../common/api/account'
import type { Access } from '../../../common/api/roles'
import type { Permission, RoleScope } from '../../../common/permissions'

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
  /** Whether the role allows anything beyond one's own account. */
  holdsAny: boolean
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

/**
 * Everything (an admin of an older backend) is a rule, not a list: the catalogue with its
 * descriptions (common/permissions.ts) stays out of the layout's and Início's cold load.
 */
type Held = ReadonlySet<Permission> | 'every'

function viewer(held: Held, rest: Omit<ViewerAccess, 'can' | 'canAny' | 'holdsAny'>): ViewerAccess {
  const can = (permission: Permission) => held === 'every' || held.has(permission)
  return {
    can,
    canAny: (...wanted) => wanted.some(can),
    holdsAny: held === 'every' || held.size > 0,
    ...rest,
  }
}

/** No one signed in, or a backend from before roles: no role, no team, every person in reach. */
const WITHOUT_ROLES = {
  scope: 'all',
  roleId: null,
  roleName: null,
  teamId: null,
  teamName: null,
  hasRoles: false,
} as const

/**
 * The viewer's access from GET /api/auth/me. Without `access` (a backend from before roles) the
 * old two roles stand: an admin may do everything, anyone else nothing but their own account.
 */
export function accessOf(user: UserWithAccess | null): ViewerAccess {
  const access = user?.access
  if (!access) return viewer(user?.role === 'admin' ? 'every' : new Set(), WITHOUT_ROLES)
  return viewer(new Set(access.permissions), {
    scope: access.scope,
    roleId: access.roleId,
    roleName: access.roleName,
    teamId: access.teamId,
    teamName: access.teamName,
    hasRoles: true,
  })
}
