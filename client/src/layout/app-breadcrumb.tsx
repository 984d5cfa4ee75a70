import { useHref, useLocation } from 'react-router-dom'
import { innerScreenAt } from '../app/inner-screens'
import { paths } from '../app/paths'
import { messages } from '../messages'
import { layoutMessages } from '../messages-layout'
import { useCurrentUser } from '../session/current-user'
import { SECOND_FACTOR_PATH } from './second-factor-gate'

/**
 * Início › the current screen. Links are made by the router (`#/dashboard`), so they work with
 * hash URLs, open in a new tab, and go back and forth with the browser's history.
 */
export function AppBreadcrumb() {
  const { pathname } = useLocation()
  const homeHref = useHref(paths.dashboard)
  // While a required second factor is set up, Início would only lead back to its setup.
  const settingUp = useCurrentUser().user?.mfaSetupRequired === true
  const atHome = pathname === paths.dashboard
  const current =
    pathname === SECOND_FACTOR_PATH
      ? layoutMessages.secondFactorSetup
      : (innerScreenAt(pathname)?.title ?? messages.notFound.title)

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
            <li className="breadcrumb-item active" aria-current="page">
              {current}
            </li>
          </>
        )}
      </ol>
    </nav>
  )
}
