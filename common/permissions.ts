/**
 * The fixed catalogue of permissions (issue 29): each named by what it allows, described in
 * pt-BR for the Papéis matrix. Roles hold a subset of these with a scope; every /api operation
 * declares one of them, `signed-in` or `public` (x-permission in the OpenAPI document).
 */
export const PERMISSIONS = [
  'staff.view',
  'staff.approve',
  'staff.invite',
  'staff.disable',
  'staff.roles',
  'staff.unlock',
  'staff.sessions',
  'staff.reset',
  'staff.mfa_reset',
  'staff.delete',
  'audit.view',
  'audit.export',
  'roles.manage',
  'teams.manage',
  'dashboard.team',
  'provisioning.manage',
] as const
export type Permission = (typeof PERMISSIONS)[number]

/** What an operation needs: a permission, a session and nothing more (`signed-in`), or nothing. */
export type OperationAccess = Permission | 'signed-in' | 'public'

/** `all`: every person; `team`: only the people of the holder's own team. */
export const ROLE_SCOPES = ['all', 'team'] as const
export type RoleScope = (typeof ROLE_SCOPES)[number]

/** The Papéis matrix's rows, in this order, grouped as the screen shows them. */
export const permissionDescriptions: Readonly<Record<Permission, string>> = {
  'staff.view': 'Ver a equipe: a lista, as contas e as sessões abertas',
  'staff.approve': 'Aprovar ou recusar cadastros',
  'staff.invite': 'Convidar pessoas e reenviar convites',
  'staff.disable': 'Desativar e reativar contas',
  'staff.roles': 'Mudar o papel, o time, o nome e o e-mail das pessoas',
  'staff.unlock': 'Desbloquear contas bloqueadas por tentativas',
  'staff.sessions': 'Encerrar as sessões de outra pessoa',
  'staff.reset': 'Enviar um link para criar nova senha',
  'staff.mfa_reset': 'Remover a verificação em duas etapas de alguém',
  'staff.delete': 'Atender pedidos de exclusão e anonimizar contas',
  'audit.view': 'Ver o registro de auditoria',
  'audit.export': 'Exportar o registro de auditoria (CSV)',
  'roles.manage': 'Criar e alterar papéis',
  'teams.manage': 'Criar e alterar times',
  'dashboard.team': 'Ver os números da equipe no Início',
  'provisioning.manage': 'Gerenciar o provisionamento pelo diretório (tokens SCIM)',
}

/** The built-in roles' fixed ids (the migration creates them; neither can be deleted). */
export const BUILT_IN_ROLE_IDS = {
  admin: '00000000-0000-4000-8000-000000000001',
  staff: '00000000-0000-4000-8000-000000000002',
} as const
