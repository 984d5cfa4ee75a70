import { Navigate, Outlet, useLocation } from 'react-router-dom'
import { useSessionToken } from '../session/use-session-token'
import { paths } from './paths'
import { afterSignInPath } from './redirect-target'

/**
 * Sign-in, registration and recovery with a session: there is nothing to do there, so go on to
 * the remembered inner path, or the dashboard. A mailed reset link (`/recuperar-senha?token=`)
 * is the exception: whoever holds it may set a new password, signed in or not.
 */
export function RedirectIfSignedIn() {
  const token = useSessionToken()
  const location = useLocation()
  const resetLink =
    location.pathname === paths.recoverPassword && new URLSearchParams(location.search).has('token')
  if (token !== null && !resetLink) {
    return <Navigate to={afterSignInPath(location.search)} replace />
  }
  return <Outlet />
}
