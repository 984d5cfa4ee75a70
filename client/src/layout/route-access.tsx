import { Outlet, useLocation } from 'react-router-dom'
import { useInnerRoutes } from '../routing/inner-routes-context'
import { routeAt } from '../routing/route-at'
import { useCurrentUser } from '../session/current-user'
import { useAccess } from '../session/use-access'
import { mayOpen } from './route-permission'
import { Notice } from '../ui/notice'
import { layoutMessages } from './layout-messages'

/**
 * The screen of the route, as its route object's `permission` allows: a screen opened by someone
 * whose role lacks it stays inside the layout and says they have no permission (the API refuses
 * them anyway); nothing of the screen is loaded. Until the user is known, nothing is shown.
 */
export function RouteAccess() {
  const { pathname } = useLocation()
  const route = routeAt(useInnerRoutes(), pathname)
  const { user } = useCurrentUser()
  const access = useAccess()
  if (!route?.permission) return <Outlet />
  if (!user) return null
  if (!mayOpen(route, access)) {
    return (
      <>
        <h1 className="h2 mb-3">{route.pageTitle ?? route.title}</h1>
        <Notice color="warning" text={layoutMessages.noPermission} />
      </>
    )
  }
  return <Outlet />
}
