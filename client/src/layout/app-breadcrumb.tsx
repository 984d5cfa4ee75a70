import { useHref, useLocation } from 'react-router-dom'
import { innerScreenAt } from '../app/inner-screens'
import { paths } from '../app/paths'
import { messages } from '../messages'
import { layoutMessages } from '../messages-layout'

/**
 * Início › the current screen. Links are made by the router (`#/dashboard`), so they work with
 * hash URLs, open in a new tab, and go back and forth with the browser's history.
 */
export function AppBreadcrumb() {
  const { pathname } = useLocation()
  const homeHref = useHref(paths.dashboard)
  const atHome = pathname === paths.dashboard
  const current = innerScreenAt(pathname)?.title ?? messages.notFound.title

  return (
    <nav aria-label={layoutMessages.breadcrumb.label}>
      <ol className="breadcrumb my-0">
        {atHome ? (
          <li className="breadcrumb-item active" aria-current="page">
            {layoutMessages.breadcrumb.home}
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
