import { createHashRouter, Navigate, type RouteObject } from 'react-router-dom'
import { lazyComponent } from './chunk-loading'
import { trackInAppHistory } from './in-app-history'
import { INNER_SCREENS } from './inner-screens'
import { PageSpinner } from './page-spinner'
import { paths } from './paths'
import { RedirectIfSignedIn } from './redirect-if-signed-in'
import { RequireSession } from './require-session'
import { RootLayout } from './root-layout'
import { RouteErrorScreen, ScreenErrorScreen } from './route-error-screen'
import { SCREEN_LOADERS } from './screen-loaders'

/**
 * The route table (SPEC §2), in the URL's hash. Public pages and inner screens are each a chunk
 * of their own; the layout is one too, so the login page never downloads it.
 */
export const routes: RouteObject[] = [
  {
    path: paths.home,
    element: <RootLayout />,
    hydrateFallbackElement: <PageSpinner />,
    errorElement: <RouteErrorScreen />,
    children: [
      {
        element: <RedirectIfSignedIn />,
        children: [
          // `/` is the login page (SPEC §2), under one canonical address: /login.
          { index: true, element: <Navigate to={paths.login} replace /> },
          { path: paths.login, lazy: lazyComponent(() => import('../pages/login-page')) },
          {
            path: paths.recoverPassword,
            lazy: lazyComponent(() => import('../pages/recover-password-page')),
          },
          { path: paths.register, lazy: lazyComponent(() => import('../pages/register-page')) },
        ],
      },
      { path: paths.notFound, lazy: lazyComponent(() => import('../pages/not-found-page')) },
      { path: paths.serverError, lazy: lazyComponent(() => import('../pages/server-error-page')) },
      {
        element: <RequireSession />,
        children: [
          {
            lazy: lazyComponent(() => import('../layout/default-layout')),
            children: [
              ...INNER_SCREENS.map((screen) => ({
                path: screen.path,
                lazy: lazyComponent(SCREEN_LOADERS[screen.path]),
                errorElement: <ScreenErrorScreen />,
              })),
              {
                path: '*',
                lazy: lazyComponent(() => import('../screens/inner-not-found-screen')),
                errorElement: <ScreenErrorScreen />,
              },
            ],
          },
        ],
      },
    ],
  },
]

export function createPanelRouter() {
  const router = createHashRouter(routes)
  trackInAppHistory(router)
  return router
}
