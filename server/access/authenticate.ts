import type { FastifyReply, FastifyRequest } from 'fastify'
import { lookUpSession, touchSession, type SessionLookup } from '../accounts/sessions'
import { BEARER } from '../accounts/tokens'
import type { ApiContext } from '../api/api-context'
import type { Account, Session } from '../db/schema'
import { apiError } from '../http/errors'
import { isMfaSetupRoute, mustSetUpSecondFactor } from './mfa-requirement'

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in account, set by requireSession. */
    account?: Account
    /** The session token the request came with, set by requireSession. */
    sessionToken?: string
    /** The session itself, set by requireSession. */
    session?: Session
    /** Set by requireSession: the account must set up a second factor first (MFA_REQUIRED). */
    mfaSetupRequired?: boolean
  }
}

export const unauthenticated = () => apiError(401, 'unauthenticated')

/**
 * The session behind a token and its account, if the session is open and the account active
 * (else why not); an open session's idle end slides (common/session-idle.ts) unless the
 * call is not the person's doing (`slide: false`: the panel's own background polling).
 */
export async function authenticate(
  { db, now, config }: Pick<ApiContext, 'db' | 'now' | 'config'>,
  token: string,
  slide = true,
): Promise<SessionLookup> {
  const at = now()
  const found = await lookUpSession(db, token, config.sessionIdleSeconds, at)
  if (found.open && slide) {
    found.session.last_seen_at = await touchSession(
      db,
      found.session,
      config.sessionIdleSeconds,
      at,
    )
  }
  return found
}

/**
 * Marks a call the panel makes by itself (the sidebar's minute poll of pending registrations):
 * it is not the person using the panel, so it must not keep an idle session alive.
 */
export const BACKGROUND_HEADER = 'x-painel-background'

/**
 * An onRequest hook: the request must carry `Authorization: Bearer <token>` of an open session. A
 * session that has ended answers a 401 whose code says why (common/session-end.ts), so the
 * login page can tell the person. A call marked `X-Painel-Background: 1` does not slide the idle end.
 * A person MFA_REQUIRED covers who has no second factor yet is let through only to the routes
 * that set one up or leave (mfa-requirement.ts); elsewhere 403 mfa_setup_required.
 * onRequest, before the body is parsed and the request validated: a caller without a session
 * learns nothing of what a route takes (a malformed body is a 401 like a good one, never a 400).
 * It reads nothing but the headers and the matched route, which onRequest already has.
 */
export function requireSession(context: Pick<ApiContext, 'db' | 'now' | 'config'>) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const token = BEARER.exec(request.headers.authorization ?? '')?.[1]
    const slide = request.headers[BACKGROUND_HEADER] !== '1'
    const found = token ? await authenticate(context, token, slide) : undefined
    if (!token || !found?.open) {
      reply.header('www-authenticate', 'Bearer')
      throw found?.open === false ? apiError(401, found.code) : unauthenticated()
    }
    request.account = found.account
    request.sessionToken = token
    request.session = found.session
    // A session opened after a multi-factor sign-in at a provider trusted for it (TRUST_MFA)
    // has had its second factor; a later session of the same person has not.
    request.mfaSetupRequired =
      !found.session.provider_mfa &&
      (await mustSetUpSecondFactor(context.db, context.config.mfaRequired, found.account))
    if (request.mfaSetupRequired && !isMfaSetupRoute(request)) {
      throw apiError(403, 'mfa_setup_required')
    }
  }
}
