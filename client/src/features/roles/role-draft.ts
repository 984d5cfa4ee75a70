import type { RoleBody, RoleChangeBody, RoleItem } from '../../../../common/api/roles'
import { ROLE_DESCRIPTION_MAX_LENGTH, ROLE_NAME_MAX_LENGTH } from '../../../../common/role-limits'
import { PERMISSIONS, type Permission, type RoleScope } from '../../../../common/permissions'
import { namedDraftProblems, type NamedField } from '../../forms/named-draft'
import { rolesMessages } from './roles-messages'

/** A role as its form holds it while it is typed. */
export interface RoleDraft {
  name: string
  description: string
  permissions: ReadonlySet<Permission>
  scope: RoleScope
}

export type RoleField = NamedField

/** A new role starts with no permission and every person in reach, as the built-in Equipe. */
export function draftOf(role?: RoleItem): RoleDraft {
  return {
    name: role?.name ?? '',
    description: role?.description ?? '',
    permissions: new Set(role?.permissions ?? []),
    scope: role?.scope ?? 'all',
  }
}

/** What the form says under its fields before anything is sent (the API's limits). */
export function roleProblems(draft: RoleDraft): Partial<Record<RoleField, string>> {
  return namedDraftProblems(
    draft,
    { name: ROLE_NAME_MAX_LENGTH, description: ROLE_DESCRIPTION_MAX_LENGTH },
    rolesMessages.form.nameRequired,
  )
}

/** POST /api/roles's body: trimmed, the permissions in the catalogue's order. */
export function roleBody(draft: RoleDraft): RoleBody {
  return {
    name: draft.name.trim(),
    description: draft.description.trim(),
    permissions: PERMISSIONS.filter((permission) => draft.permissions.has(permission)),
    scope: draft.scope,
  }
}

/**
 * PATCH /api/roles/:id's body: only what differs from the role as loaded (the audit log then
 * records only real changes); null when nothing does.
 */
export function roleChanges(role: RoleItem, draft: RoleDraft): RoleChangeBody | null {
  const body = roleBody(draft)
  const changes: RoleChangeBody = {}
  if (body.name !== role.name) changes.name = body.name
  if (body.description !== role.description) changes.description = body.description
  const before = PERMISSIONS.filter((permission) => role.permissions.includes(permission))
  if (before.join() !== body.permissions.join()) changes.permissions = body.permissions
  if (body.scope !== role.scope) changes.scope = body.scope
  return Object.keys(changes).length > 0 ? changes : null
}
