import { paths } from '../../routing/paths'
import type { InnerRoute } from '../../routing/route'

export const teamsRoute: InnerRoute = {
  path: paths.teams,
  title: 'Times',
  access: 'signed-in',
  permission: 'teams.manage',
  icon: 'teams',
  load: () => import('./teams-screen'),
}
