import { paths } from '../../routing/paths'
import type { InnerRoute } from '../../routing/route'

export const rolesRoute: InnerRoute = {
  path: paths.roles,
  title: 'Papéis',
  access: 'signed-in',
  permission: 'roles.manage',
  icon: 'roles',
  load: () => import('./roles-screen'),
}

/** One role's page (`#/papeis/novo` while one is created); the breadcrumb then shows its name. */
export const roleRoute: InnerRoute = {
  path: paths.role,
  title: 'Papel',
  pageTitle: 'Papéis',
  access: 'signed-in',
  permission: 'roles.manage',
  icon: 'roles',
  notInMenu: true,
  parent: rolesRoute,
  load: () => import('./role-screen'),
}
