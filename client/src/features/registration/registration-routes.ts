import { paths } from '../../routing/paths'
import type { PublicRoute } from '../../routing/route'

/** Asking for an account, which an admin then approves. */
export const registerRoute: PublicRoute = {
  path: paths.register,
  title: 'Solicitar cadastro',
  access: 'signed-out',
  load: () => import('./register-page'),
}
