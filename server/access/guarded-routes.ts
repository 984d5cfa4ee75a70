import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyInstance, onRequestAsyncHookHandler } from 'fastify'
import type { ApiContext } from '../api/api-context'
import { refuseUnstorableText } from '../http/storable-input'
import { requireSession } from './authenticate'
import { accessHook, declaredAccess } from './operation-access'

/**
 * Who may call a feature's routes, declared once for its plugin (guardedRoutes): each guard is
 * an onRequest hook, run in the order given, before the body is read, so a caller a guard
 * turns away learns nothing of what a route takes (a malformed body is a 401 like a good one).
 */
export interface Guard {
  readonly name: string
  readonly hook: (context: ApiContext) => onRequestAsyncHookHandler
  /** The answers are about whoever asks (a person, a directory's token): no cache keeps them. */
  readonly noStore?: boolean
  /** The guard asks for a signed-in session: a route behind it cannot be declared `public`. */
  readonly needsSession?: boolean
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
  noStore: true,
  needsSession: true,
}

/** Where guardedRoutes leaves its guards on the plugin's own Fastify instance (its children inherit them). */
const GUARDS = Symbol('the guards of a guardedRoutes plugin')
type Guarded = { [GUARDS]?: readonly Guard[] }

/**
 * A feature's routes as one encapsulated plugin whose guards cover every route it holds: a route
 * added to it is guarded with nothing written on the route (guarded-routes.test.ts). Each route
 * also declares what it needs in its schema's `x-permission` (operation-access.ts), which
 * denyByDefault below checks and enforces. Every body, query and path is refused with a 400 when
 * it holds text no store keeps (http/storable-input.ts).
 */
export function guardedRoutes(
  guards: readonly Guard[],
  routes: FastifyPluginAsyncTypebox<ApiContext>,
): FastifyPluginAsyncTypebox<ApiContext> {
  return async (app, context) => {
    ;(app as unknown as Guarded)[GUARDS] = guards
    for (const guard of guards) app.addHook('onRequest', guard.hook(context))
    if (guards.some((guard) => guard.noStore)) {
      app.addHook('onSend', async (_request, reply) => {
        reply.header('cache-control', 'no-store')
      })
    }
    app.addHook('preValidation', refuseUnstorableText)
    await routes(app, context)
  }
}

/**
 * Deny by default, whatever plugin a route sits in: called once on the instance the features are
 * registered under (server/built-in-api.ts), it stops the app at start for a route outside a
 * guardedRoutes plugin, for one whose schema declares no access (`x-permission`), and for one
 * declared `public` behind a guard that asks for a session; every other route gets the check its
 * declaration asks for (operation-access.ts), here rather than in the wrapper, so that it does not
 * depend on the wrapper being used.
 */
export function denyByDefault(
  api: FastifyInstance,
  context: Pick<ApiContext, 'db' | 'now' | 'config'>,
): void {
  api.addHook('onRoute', function (route) {
    const name = `${String(route.method)} ${route.url}`
    const guards = (this as unknown as Guarded)[GUARDS]
    if (!guards) {
      throw new Error(
        `${name} sits in a plugin not wrapped in guardedRoutes: export the feature's plugin as guardedRoutes([guards], async (app, context) => …) (server/access/guarded-routes.ts)`,
      )
    }
    const declared = declaredAccess(route)
    if (declared === 'public' && guards.some((guard) => guard.needsSession)) {
      throw new Error(`${name} is declared public behind signedIn`)
    }
    const hook = accessHook(context, declared)
    if (hook) route.onRequest = [...[route.onRequest ?? []].flat(), hook]
  })
}

/**
 * The `security` of every route that needs a session, as the OpenAPI document shows it: the
 * bearer scheme of server/openapi/api-description.ts. Public routes leave it out.
 */
export const bearer: readonly { bearer: readonly string[] }[] = [{ bearer: [] }]
