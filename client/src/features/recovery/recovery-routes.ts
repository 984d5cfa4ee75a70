import { paths } from '../../routing/paths'
import type { PublicRoute } from '../../routing/route'

/**
 * A forgotten password: asking for a link, and the mailed link's new password (its page names
 * the tab after the step it shows).
 */
export const recoveryRoute: PublicRoute = {
  path: paths.recoverPassword,
  title: 'Recuperar senha',
  access: 'signed-out',
  load: () => import('./recover-password-page'),
}
