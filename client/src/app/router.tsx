import { Suspense, useLayoutEffect, type ComponentType, type ReactNode } from 'react'
import { HashRouter, Navigate, Route, Routes, useLocation } from 'react-router-dom'
import { lazyPage } from '../routing/chunk-loading'
import { InnerRoutes } from '../routing/inner-routes-context'
import { paths } from '../routing/paths'
import { RedirectIfSignedIn } from '../routing/redirect-if-signed-in'
import { RequireSession } from '../routing/require-session'
import { isInnerRoute, type InnerRoute, type PublicRoute } from '../routing/route'
import { RouteErrorBoundary } from '../routing/route-error-boundary'
import { ScreenErrorScreen } from '../routing/route-error-screen'
import { PageSpinner } from '../ui/page-spinner'
import { messages } from '../words/messages'
import { SignalPageCommitted } from './page-committed'
import { RootLayout } from './root-layout'
import { loadInnerFallback, loadLayout, ROUTES } from './routes'

/*
 * The route table (the routing contract of docs/architecture.md), in the URL's hash, made from
 * the route objects of app/routes.ts. Public pages and inner screens are each a chunk of their
 * own; the layout is one too, so the login page never downloads it.
 *
 * Declared with <Routes>, not a data router (createHashRouter): the panel loads no data through
 * routes, and the data router's code was 15 KB (brotli) of the login page's cold load
 * (docs/performance.md).
 */

const PAGES = new Map(
  ROUTES.map((route) => [
    route,
    lazyPage(route.load, isInnerRoute(route) ? {} : { wholeStylesheet: route.wholeStylesheet }),
  ]),
)
const DefaultLayout = lazyPage(loadLayout)
const InnerFallback = lazyPage(loadInnerFallback)

const publicRoutes = ROUTES.filter((route): route is PublicRoute => !isInnerRoute(route))
const innerRoutes = ROUTES.filter(isInnerRoute)
const loginPage = PAGES.get(publicRoutes.find((route) => route.path === paths.login)!)!

/**
 * The login page's chunk, fetched before the prerendered sign-in page is hydrated: the first
 * render must be that page, as the build rendered it, and not the spinner (mount.tsx).
 */
export function preloadSignInPage(): Promise<unknown> {
  return loginPage.preload()
}

/**
 * Names the tab after the route object ("Entrar · Painel"). A layout effect: all of them run
 * before any plain effect, so a page's own useDocumentTitle, beneath it, has the last word.
 */
function RouteTitle({ title }: { title: string }) {
  useLayoutEffect(() => {
    document.title = `${title} · ${messages.app.name}`
  }, [title])
  return null
}

/** A page: the centred spinner while its chunk loads. */
function page(route: PublicRoute): ReactNode {
  const Page = PAGES.get(route)!
  return (
    <>
      <RouteTitle title={route.title} />
      <Suspense fallback={<PageSpinner />}>
        <Page />
        <SignalPageCommitted />
      </Suspense>
    </>
  )
}

/** An inner screen: its errors stay in the content area, and the menu stays usable. */
function InnerScreen({ Screen, title }: { Screen: ComponentType; title?: string }) {
  const { pathname } = useLocation()
  return (
    <RouteErrorBoundary
      resetKey={pathname}
      fallback={(error) => <ScreenErrorScreen error={error} />}
    >
      {title !== undefined && <RouteTitle title={title} />}
      <Suspense fallback={<PageSpinner overlay />}>
        <Screen />
      </Suspense>
    </RouteErrorBoundary>
  )
}

function innerScreen(route: InnerRoute): ReactNode {
  return <InnerScreen Screen={PAGES.get(route)!} title={route.pageTitle ?? route.title} />
}

/** The layout, given the inner screens' route objects for its sidebar and breadcrumb. */
const layout = (
  <InnerRoutes.Provider value={innerRoutes}>
    <Suspense fallback={<PageSpinner />}>
      <DefaultLayout />
      <SignalPageCommitted />
    </Suspense>
  </InnerRoutes.Provider>
)

export function PanelRoutes() {
  return (
    <Routes>
      <Route element={<RootLayout />}>
        <Route element={<RedirectIfSignedIn />}>
          {/* `/` is the login page, under one canonical address: /login. */}
          <Route index element={<Navigate to={paths.login} replace />} />
          {publicRoutes
            .filter((route) => route.access === 'signed-out')
            .map((route) => (
              <Route key={route.path} path={route.path} element={page(route)} />
            ))}
        </Route>
        {publicRoutes
          .filter((route) => route.access === 'public')
          .map((route) => (
            <Route key={route.path} path={route.path} element={page(route)} />
          ))}
        <Route element={<RequireSession />}>
          <Route element={layout}>
            {innerRoutes.map((route) => (
              <Route key={route.path} path={route.path} element={innerScreen(route)} />
            ))}
            <Route path="*" element={<InnerScreen Screen={InnerFallback} />} />
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
