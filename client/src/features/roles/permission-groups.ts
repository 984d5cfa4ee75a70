import { PERMISSIONS, type Permission } from '../../../../common/permissions'

export type PermissionGroup = 'staff' | 'audit' | 'administration'

/** Where each permission sits in the matrix; the compiler asks for every one of the catalogue. */
const GROUP_OF: Readonly<Record<Permission, PermissionGroup>> = {
  'staff.view': 'staff',
  'staff.approve': 'staff',
  'staff.invite': 'staff',
  'staff.disable': 'staff',
  'staff.roles': 'staff',
  'staff.unlock': 'staff',
  'staff.sessions': 'staff',
  'staff.reset': 'staff',
  'staff.mfa_reset': 'staff',
  'staff.delete': 'staff',
  'dashboard.team': 'staff',
  'audit.view': 'audit',
  'audit.export': 'audit',
  'roles.manage': 'administration',
  'teams.manage': 'administration',
  'provisioning.manage': 'administration',
}

const ORDER: readonly PermissionGroup[] = ['staff', 'audit', 'administration']

/**
 * The matrix's groups (Pessoas, Auditoria, Administração), each with its permissions in the
 * catalogue's order (common/permissions.ts). A permission a newer server adds and this client
 * does not know is not shown: it could not be described.
 */
export function permissionGroups(): { group: PermissionGroup; permissions: Permission[] }[] {
  return ORDER.map((group) => ({
    group,
    permissions: PERMISSIONS.filter((permission) => GROUP_OF[permission] === group),
  }))
}
