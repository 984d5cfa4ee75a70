import type { Role } from '../../common/account-rules'
import { BUILT_IN_ROLE_IDS } from '../../common/permissions'

/**
 * The columns a person's role is written to: `role_id`, and the older `role` kept in step with
 * it (admin for Administrador, staff for any other role), which the API still shows and the
 * last-admin rule (accounts/account-administration.ts) and MFA_REQUIRED=admins read. Every
 * write of a role goes through here, so the two never disagree.
 */
export function roleColumns(roleId: string): { role_id: string; role: Role } {
  const id = roleId.toLowerCase()
  return { role_id: id, role: id === BUILT_IN_ROLE_IDS.admin ? 'admin' : 'staff' }
}

/** The built-in role an old `role` names: what callers that still speak admin/staff mean. */
export function builtInRoleId(role: Role): string {
  return role === 'admin' ? BUILT_IN_ROLE_IDS.admin : BUILT_IN_ROLE_IDS.staff
}
