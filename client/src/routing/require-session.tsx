import { Navigate, Outlet, useLocation } from 'react-router-dom'
import { wasSignedOutHere } from '../session/token'
import { useSessionToken } from '../session/use-session-token'
import { paths } from './paths'
import { loginPathFor } from './redirect-target'

/**
 * The access guard of every non-public path. Without a token it sends the user to /login,
 * remembering where they wanted to go; it re-renders when the token changes in any tab, so a
 * sign-out elsewhere takes this tab to the login page too.
 */
export function RequireSession() {
  const token = useSessionToken()
  const location = useLocation()
  if (token === null) {
    // After "Sair" in this tab the user chose to leave: nothing to come back to.
    const to = wasSignedOutHere() ? paths.login : loginPathFor(location)
    return <Navigate to={to} replace />
  }
  return <Outlet />
}
