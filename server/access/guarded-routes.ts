import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { onRequestAsyncHookHandler } from 'fastify'
import type { ApiContext } from '../api/api-context'
import { refuseUnstorableText } from '../http/storable-input'
import { requireAdmin, requireSession } from './authenticate'

/**
 * Who may call a feature's routes, declared once for its plugin (guardedRoutes): each guard is
 * an onRequest hook, run in the order given, before the body is read, so a caller a guard
 * turns away learns nothing of what a route takes (a malformed body is a 401 like a good one).
 */
export interface Guard {
  readonly name: string
  readonly hook: (context: ApiContext) => onRequestAsyncHookHandler
  /** The answers are about the person asking: no cache keeps them. */
  readonly personal?: boolean
}

/** Anyone, with no limit but the app's own (health checks, the OpenAPI document). */
export const PUBLIC: readonly Guard[] = []

/** Anyone, counted per address by AUTH_RATE_LIMIT's one burst limiter (api-context.ts). */
export const burstLimit: Guard = { name: 'burst limit', hook: (context) => context.burstLimit }

/** Anyone, counted per address apart from the burst limit: the password meter (api-context.ts). */
export const typingLimit: Guard = { name: 'typing limit', hook: (context) => context.typingLimit }

/** A signed-in person: `Authorization: Bearer` of an open session (authenticate.ts). */
export const signedIn: Guard = {
  name: 'signed in',
  hook: (context) => requireSession(context),
  personal: true,
}

/** A signed-in admin; anyone else 403 forbidden. */
export const admins: Guard = {
  name: 'admins',
  hook: (context) => {
    const session = requireSession(context)
    return async (request, reply) => {
      await session(request, reply)
      await requireAdmin(request)
    }
  },
  personal: true,
}

/**
 * A feature's routes as one encapsulated plugin whose guards cover every route it holds: a route
 * added to it is guarded with nothing written on the route (guarded-routes.test.ts). Every body,
 * query and path is refused with a 400 when it holds text no store keeps (http/storable-input.ts).
 */
export function guardedRoutes(
  guards: readonly Guard[],
  routes: FastifyPluginAsyncTypebox<ApiContext>,
): FastifyPluginAsyncTypebox<ApiContext> {
  return async (app, context) => {
    for (const guard of guards) app.addHook('onRequest', guard.hook(context))
    if (guards.some((guard) => guard.personal)) {
      app.addHook('onSend', async (_request, reply) => {
        reply.header('cache-control', 'no-store')
      })
    }
    app.addHook('preValidation', refuseUnstorableText)
    await routes(app, context)
  }
}
