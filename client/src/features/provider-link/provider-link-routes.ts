import { paths } from '../../routing/paths'
import type { PublicRoute } from '../../routing/route'

/**
 * An admin's mailed link to connect a sign-in provider (`?token=`, docs/single-sign-on.md): open
 * signed in or not, the link is the proof. Its page is a chunk of its own, so the cold #/login
 * loads nothing more.
 */
export const providerLinkRoute: PublicRoute = {
  path: paths.linkProvider,
  title: 'Vincular provedor',
  access: 'public',
  load: () => import('./provider-link-page'),
}
