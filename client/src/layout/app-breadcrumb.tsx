import { useHref, useLocation } from 'react-router-dom'
import { useInnerRoutes } from '../routing/inner-routes-context'
import { paths } from '../routing/paths'
import { routeAt } from '../routing/route-at'
import { layoutMessages } from './layout-messages'
import { useCurrentUser } from '../session/current-user'
import { useBreadcrumbDetail } from './breadcrumb-detail'

/**
 * Início › the current screen, with the screen it is reached from between them (Início › Equipe ›
 * the person's name, on an account's page: the screen names itself through breadcrumb-detail.ts). Links are made by the router (`#/dashboard`), so they work with
 * hash URLs, open in a new tab, and go back and forth with the browser's history.
 */
export function AppBreadcrumb() {
  const { pathname } = useLocation()
  const homeHref = useHref(paths.dashboard)
  // While a required second factor is set up, Início would only lead back to its setup.
  const settingUp = useCurrentUser().user?.mfaSetupRequired === true
  const atHome = pathname === paths.dashboard
  const screen = routeAt(useInnerRoutes(), pathname)
  const parent = screen?.parent
  const parentHref = useHref(parent?.path ?? paths.dashboard)
  const detail = useBreadcrumbDetail(pathname)
  const current = detail ?? screen?.title ?? layoutMessages.breadcrumb.unknown

  return (
    <nav aria-label={layoutMessages.breadcrumb.label}>
      <ol className="breadcrumb my-0">
        {atHome || settingUp ? (
          <li className="breadcrumb-item active" aria-current="page">
            {atHome ? layoutMessages.breadcrumb.home : current}
          </li>
        ) : (
          <>
            <li className="breadcrumb-item">
              <a href={homeHref}>{layoutMessages.breadcrumb.home}</a>
            </li>
            {parent && (
              <li className="breadcrumb-item">
                <a href={parentHref}>{parent.title}</a>
              </li>
            )}
            <li className="breadcrumb-item active" aria-current="page">
              {current}
            </li>
          </>
        )}
      </ol>
    </nav>
  )
}
