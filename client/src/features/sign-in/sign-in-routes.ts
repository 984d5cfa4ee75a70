import { paths } from '../../routing/paths'
import type { PublicRoute } from '../../routing/route'

/** The login page (with its second step and the notice of why a session ended). */
export const loginRoute: PublicRoute = {
  path: paths.login,
  title: 'Entrar',
  access: 'signed-out',
  load: () => import('./login-page'),
  // The CSS inline in index.html is the login page's, everything it can show included.
  wholeStylesheet: false,
}
