import { Navigate, Outlet, useLocation } from 'react-router-dom'
import { DEFAULT_SIGNED_IN_PATH, paths, REDIRECT_PARAM } from '../routing/paths'
import { afterSignInPath, safeRedirectTarget } from '../routing/redirect-target'
import { useCurrentUser } from '../session/current-user'
import { Notice } from '../ui/notice'
import { PageSpinner } from '../ui/page-spinner'
import { RouteAccess } from './route-access'

const SECOND_FACTOR_PATH = paths.secondFactorSetup

/** The setup screen's address, remembering where the person was going. */
function setupPathFor(wanted: { pathname: string; search: string }): string {
  const target = safeRedirectTarget(wanted.pathname + wanted.search)
  if (target === null || target === DEFAULT_SIGNED_IN_PATH) return SECOND_FACTOR_PATH
  return `${SECOND_FACTOR_PATH}?${new URLSearchParams({ [REDIRECT_PARAM]: target }).toString()}`
}

/** Where to go once a factor is set up: the remembered path (never this screen again). */
function afterSetupPath(search: string): string {
  const target = afterSignInPath(search)
  return target.split('?')[0] === SECOND_FACTOR_PATH ? DEFAULT_SIGNED_IN_PATH : target
}

/**
 * The layout's content: the screen of the route, unless the person must set up a second factor
 * first (GET /api/auth/me says `mfaSetupRequired`), in which case every address leads to the
 * setup screen, and the setup screen, once a factor is on, leads on to where they were going.
 * The server refuses everything else meanwhile (403 mfa_setup_required), so this is for clarity,
 * not protection.
 */
export function SecondFactorGate() {
  const { user, error, loading } = useCurrentUser()
  const location = useLocation()
  const atSetup = location.pathname === SECOND_FACTOR_PATH
  if (user?.mfaSetupRequired && !atSetup) return <Navigate to={setupPathFor(location)} replace />
  if (!atSetup) return <RouteAccess />
  if (user && !user.mfaSetupRequired) {
    return <Navigate to={afterSetupPath(location.search)} replace />
  }
  if (loading) return <PageSpinner overlay />
  if (!user) return <Notice text={error} />
  // The setup screen itself: an inner route like any other (its route object is the feature's).
  return <Outlet />
}
