import { Outlet, useLocation, useNavigationType } from 'react-router-dom'
import { useThemeParam } from '../theme/use-theme-param'
import { noteInAppLocation } from '../routing/in-app-history'
import { RouteErrorBoundary } from '../routing/route-error-boundary'
import { RouteErrorScreen } from '../routing/route-error-screen'

/** Around every route: the error screen for whatever a page throws, and the theme parameter. */
export function RootLayout() {
  const location = useLocation()
  // During render, not in an effect: the page rendered below may ask whether it can go back.
  noteInAppLocation(location, useNavigationType())
  useThemeParam()
  return (
    <RouteErrorBoundary
      resetKey={location.pathname}
      fallback={(error) => <RouteErrorScreen error={error} />}
    >
      <Outlet />
    </RouteErrorBoundary>
  )
}
