import { paths } from '../../routing/paths'
import type { InnerRoute } from '../../routing/route'

export const dashboardRoute: InnerRoute = {
  path: paths.dashboard,
  title: 'Início',
  access: 'signed-in',
  icon: 'dashboard',
  load: () => import('./dashboard-screen'),
}
