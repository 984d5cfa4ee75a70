import { paths } from '../../routing/paths'
import type { PublicRoute } from '../../routing/route'

/**
 * The links of a change of e-mail (common/api/email-change.ts): `?token=` from the new address
 * confirms it, `?cancelar=` from the old one cancels it. Open signed in or not: the link is
 * the proof, not the session.
 */
export const emailConfirmationRoute: PublicRoute = {
  path: paths.confirmEmail,
  title: 'Confirmar e-mail',
  access: 'public',
  load: () => import('./email-confirmation-page'),
}
