import { paths } from '../../routing/paths'
import type { PublicRoute } from '../../routing/route'

export const notFoundRoute: PublicRoute = {
  path: paths.notFound,
  title: 'Página não encontrada',
  access: 'public',
  load: () => import('./not-found-page'),
}

export const serverErrorRoute: PublicRoute = {
  path: paths.serverError,
  title: 'Erro no servidor',
  access: 'public',
  load: () => import('./server-error-page'),
}

/** What the layout shows at an address no inner screen has (the router's `*`). */
export const loadInnerNotFound = () => import('./inner-not-found-screen')
