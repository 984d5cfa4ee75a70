import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Account, Session } from '../db/schema'
import { apiError } from '../http/errors'
import type { AuthService } from '../features/sign-in/sign-in'
import { isMfaSetupRoute } from './mfa-requirement'
import { BEARER } from '../accounts/tokens'

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
export function requireSession(auth: AuthService) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const token = BEARER.exec(request.headers.authorization ?? '')?.[1]
    const slide = request.headers[BACKGROUND_HEADER] !== '1'
    const found = token ? await auth.authenticate(token, slide) : undefined
    if (!token || !found?.open) {
      reply.header('www-authenticate', 'Bearer')
      throw found?.open === false ? apiError(401, found.code) : unauthenticated()
    }
    request.account = found.account
    request.sessionToken = token
    request.session = found.session
    request.mfaSetupRequired = await auth.mustSetUpSecondFactor(found.account)
    if (request.mfaSetupRequired && !isMfaSetupRoute(request)) {
      throw apiError(403, 'mfa_setup_required')
    }
  }
}

/** An onRequest hook after requireSession: only admins go on, whatever they sent. */
export async function requireAdmin(request: FastifyRequest): Promise<void> {
  if (request.account?.role !== 'admin') {
    throw apiError(403, 'admins_only', 'forbidden')
  }
}

/**
 * Every route of this plugin scope needs a session (and, with adminsOnly, an admin's), and its
 * answers, which are about the person asking, are kept by no cache.
 */
export function signedInRoutes(
  app: FastifyInstance,
  auth: AuthService,
  { adminsOnly }: { adminsOnly: boolean },
): void {
  app.addHook('onRequest', requireSession(auth))
  if (adminsOnly) app.addHook('onRequest', requireAdmin)
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store')
  })
}
