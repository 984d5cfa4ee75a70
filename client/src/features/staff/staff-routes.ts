import { STAFF_PERMISSIONS } from '../../../../common/staff-permissions'
import { paths } from '../../routing/paths'
import type { InnerRoute } from '../../routing/route'

export const staffRoute: InnerRoute = {
  path: paths.staff,
  title: 'Equipe',
  access: 'signed-in',
  permission: STAFF_PERMISSIONS.view,
  icon: 'staff',
  load: () => import('./staff-screen'),
}

/** One account's page, reached from Equipe's list (the breadcrumb then shows the name). */
export const staffAccountRoute: InnerRoute = {
  path: paths.staffAccount,
  title: 'Conta',
  pageTitle: 'Equipe',
  access: 'signed-in',
  permission: STAFF_PERMISSIONS.view,
  icon: 'staff',
  notInMenu: true,
  parent: staffRoute,
  load: () => import('./staff-account-screen'),
}
