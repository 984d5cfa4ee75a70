import { paths } from '../../routing/paths'
import type { InnerRoute } from '../../routing/route'

export const profileRoute: InnerRoute = {
  path: paths.profile,
  title: 'Minha conta',
  access: 'signed-in',
  icon: 'profile',
  load: () => import('./profile-screen'),
}
