import { Navigate, Outlet, useLocation } from 'react-router-dom'
import { useSessionToken } from '../session/use-session-token'
import { afterSignInPath } from './redirect-target'

/** `/` and `/login` with a session: go on to the remembered inner path, or the dashboard. */
export function RedirectIfSignedIn() {
  const token = useSessionToken()
  const location = useLocation()
  if (token !== null) return <Navigate to={afterSignInPath(location.search)} replace />
  return <Outlet />
}
