import type { Access } from '../../common/api/roles'
import { BUILT_IN_ROLE_IDS, type Permission, type RoleScope } from '../../common/permissions'

/**
 * The three sample roles of docs/roles-and-teams.md (beside the built-in ones), as a request to
 * create a role names them; the matrix test calls every operation as each. A test that needs a
 * permission more adds it to a copy (`[...TEAM_MANAGER.permissions, 'staff.roles']`).
 */
export interface SampleRole {
  name: string
  permissions: readonly Permission[]
  scope: RoleScope
}

export const TEAM_MANAGER: SampleRole = {
  name: 'Gestor de equipe',
  permissions: [
    'staff.approve',
    'staff.invite',
    'staff.disable',
    'staff.unlock',
    'staff.sessions',
    'staff.reset',
  ],
  scope: 'team',
}

export const AUDITORS: SampleRole = {
  name: 'Auditoria',
  permissions: ['audit.view', 'audit.export'],
  scope: 'all',
}

export const SUPPORT: SampleRole = {
  name: 'Suporte',
  permissions: ['staff.unlock', 'staff.reset', 'staff.sessions'],
  scope: 'all',
}

/**
 * The built-in Administrador as a list's query sees its viewer (features/staff/staff-list.ts):
 * every account in reach, for the tests that call a list without a request.
 */
export const ADMIN_ACCESS: Access = {
  roleId: BUILT_IN_ROLE_IDS.admin,
  roleName: 'Administrador',
  scope: 'all',
  permissions: [],
  teamId: null,
  teamName: null,
}
