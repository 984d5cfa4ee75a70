import type { RoleAnswer, RoleBody, RoleChangeBody } from '../../../../common/api/roles'
import { apiRequest } from '../../session/api-client'

/** Creating, changing and deleting roles (common/api/roles.ts). The list: api/roles-and-teams-api.ts. */

const role = (id: string) => `roles/${encodeURIComponent(id)}`

export const createRole = (body: RoleBody) =>
  apiRequest<RoleAnswer>('roles', { method: 'POST', body })

export const changeRole = (id: string, body: RoleChangeBody) =>
  apiRequest<RoleAnswer>(role(id), { method: 'PATCH', body })

export const deleteRole = (id: string) => apiRequest<void>(role(id), { method: 'DELETE' })
