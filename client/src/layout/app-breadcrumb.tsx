import { useHref, useLocation } from 'react-router-dom'
import { innerScreenAt } from '../app/inner-screens'
import { paths } from '../routing/paths'
import { messages } from '../words/messages'
import { layoutMessages } from './layout-messages'
import { useCurrentUser } from '../session/current-user'
import { useBreadcrumbDetail } from './breadcrumb-detail'
import { SECOND_FACTOR_PATH } from './second-factor-gate'

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
  const screen = innerScreenAt(pathname)
  const parent = screen?.parent === undefined ? undefined : innerScreenAt(screen.parent)
  const parentHref = useHref(parent?.path ?? paths.dashboard)
  const detail = useBreadcrumbDetail(pathname)
  const current =
    pathname === SECOND_FACTOR_PATH
      ? layoutMessages.secondFactorSetup
      : (detail ?? screen?.title ?? messages.notFound.title)

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
