import { Suspense, type ComponentType, type ReactNode } from 'react'
import { HashRouter, Navigate, Route, Routes, useLocation } from 'react-router-dom'
import { lazyPage } from '../routing/chunk-loading'
import { INNER_SCREENS } from './inner-screens'
import { SignalPageCommitted } from './page-committed'
import { PageSpinner } from '../ui/page-spinner'
import { paths } from '../routing/paths'
import { RedirectIfSignedIn } from '../routing/redirect-if-signed-in'
import { RequireSession } from '../routing/require-session'
import { RootLayout } from './root-layout'
import { RouteErrorBoundary } from '../routing/route-error-boundary'
import { ScreenErrorScreen } from '../routing/route-error-screen'
import { SCREEN_LOADERS } from './screen-loaders'

/*
 * The route table (docs/architecture.md, "Fixed contracts"), in the URL's hash. Public pages and inner screens are each a chunk
 * of their own; the layout is one too, so the login page never downloads it.
 *
 * Declared with <Routes>, not a data router (createHashRouter): the panel loads no data through
 * routes, and the data router's code was 15 KB (brotli) of the login page's cold load
 * (docs/performance.md).
 */
// The CSS inline in index.html is the login page's, everything it can show included.
const LoginPage = lazyPage(() => import('../features/sign-in/login-page'), {
  wholeStylesheet: false,
})
const RecoverPasswordPage = lazyPage(() => import('../features/recovery/recover-password-page'))
const RegisterPage = lazyPage(() => import('../features/registration/register-page'))
const NotFoundPage = lazyPage(() => import('../features/error-pages/not-found-page'))
const ServerErrorPage = lazyPage(() => import('../features/error-pages/server-error-page'))
const DefaultLayout = lazyPage(() => import('../layout/default-layout'))
const InnerNotFoundScreen = lazyPage(() => import('../features/error-pages/inner-not-found-screen'))
const SCREENS = Object.fromEntries(
  INNER_SCREENS.map((screen) => [screen.path, lazyPage(SCREEN_LOADERS[screen.path])]),
)

/**
 * The login page's chunk, fetched before the prerendered sign-in page is hydrated: the first
 * render must be that page, as the build rendered it, and not the spinner (mount.tsx).
 */
export function preloadSignInPage(): Promise<unknown> {
  return LoginPage.preload()
}

/** A page: the centred spinner while its chunk loads. */
function page(Page: ComponentType): ReactNode {
  return (
    <Suspense fallback={<PageSpinner />}>
      <Page />
      <SignalPageCommitted />
    </Suspense>
  )
}

/** An inner screen: its errors stay in the content area, and the menu stays usable. */
function InnerScreen({ Screen }: { Screen: ComponentType }) {
  const { pathname } = useLocation()
  return (
    <RouteErrorBoundary
      resetKey={pathname}
      fallback={(error) => <ScreenErrorScreen error={error} />}
    >
      <Suspense fallback={<PageSpinner overlay />}>
        <Screen />
      </Suspense>
    </RouteErrorBoundary>
  )
}

export function PanelRoutes() {
  return (
    <Routes>
      <Route element={<RootLayout />}>
        <Route element={<RedirectIfSignedIn />}>
          {/* `/` is the login page (docs/architecture.md, "Fixed contracts"), under one canonical address: /login. */}
          <Route index element={<Navigate to={paths.login} replace />} />
          <Route path={paths.login} element={page(LoginPage)} />
          <Route path={paths.recoverPassword} element={page(RecoverPasswordPage)} />
          <Route path={paths.register} element={page(RegisterPage)} />
        </Route>
        <Route path={paths.notFound} element={page(NotFoundPage)} />
        <Route path={paths.serverError} element={page(ServerErrorPage)} />
        <Route element={<RequireSession />}>
          <Route element={page(DefaultLayout)}>
            {INNER_SCREENS.map((screen) => (
              <Route
                key={screen.path}
                path={screen.path}
                element={<InnerScreen Screen={SCREENS[screen.path]!} />}
              />
            ))}
            <Route path="*" element={<InnerScreen Screen={InnerNotFoundScreen} />} />
          </Route>
        </Route>
      </Route>
    </Routes>
  )
}

/**
 * Without transitions: a page whose chunk is still loading shows its spinner at once, rather
 * than the previous page staying up with no sign that anything is happening.
 */
export function PanelRouter() {
  return (
    <HashRouter useTransitions={false}>
      <PanelRoutes />
    </HashRouter>
  )
}
