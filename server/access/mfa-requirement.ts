import type { FastifyRequest } from 'fastify'
import type { MfaRequired } from '../config/config'
import type { Db } from '../db/database'
import type { Account } from '../db/schema'
import { hasSecondFactor } from '../accounts/second-factors'

/**
 * MFA_REQUIRED (docs/security.md): a signed-in person the setting covers
 * who has no second factor yet may only set one up, or leave. Admins approve, disable and promote
 * accounts, so by default their password alone is not enough.
 */

/**
 * What such a person may still call, as `METHOD /path` (the route's pattern, prefix included):
 * who they are, leaving, their session's limits (the idle warning) and its end (the stream that
 * says it ended elsewhere), and setting up an
 * authenticator app or a passkey. Everything else answers 403 mfa_setup_required. A route not
 * named here is refused: a new route is closed to them until it is added on purpose.
 */
export const MFA_SETUP_ROUTES: ReadonlySet<string> = new Set([
  'GET /api/auth/me',
  'POST /api/auth/logout',
  'GET /api/auth/session-events',
  'GET /api/me/session',
  'POST /api/me/session/renew',
  'GET /api/me/sessions',
  'GET /api/me/mfa',
  'POST /api/me/totp',
  'POST /api/me/totp/confirm',
  // The passkey card lists the person's passkeys (none yet) beside its "add" button.
  'GET /api/me/passkeys',
  'POST /api/me/passkeys/options',
  'POST /api/me/passkeys',
])

/** Whether the setting covers an account of this role. */
export function isCoveredBy(setting: MfaRequired, role: Account['role']): boolean {
  return setting === 'all' || (setting === 'admins' && role === 'admin')
}

/** Whether this account must set up a second factor before doing anything else. */
export async function mustSetUpSecondFactor(
  db: Db,
  setting: MfaRequired,
  account: Account,
): Promise<boolean> {
  return isCoveredBy(setting, account.role) && !(await hasSecondFactor(db, account.id))
}

/** Whether the route a request reached is one a person without a required factor may call. */
export function isMfaSetupRoute(request: FastifyRequest): boolean {
  return MFA_SETUP_ROUTES.has(`${request.method} ${request.routeOptions.url ?? ''}`)
}
