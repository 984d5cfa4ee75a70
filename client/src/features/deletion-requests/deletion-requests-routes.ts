import { paths } from '../../routing/paths'
import type { InnerRoute } from '../../routing/route'

/** The open requests for deletion, reached from Equipe's link (app/routes.ts makes Equipe its parent). */
export const deletionRequestsRoute: InnerRoute = {
  path: paths.deletionRequests,
  title: 'Pedidos de exclusão',
  access: 'signed-in',
  permission: 'staff.delete',
  icon: 'staff',
  notInMenu: true,
  load: () => import('./deletion-requests-screen'),
}
