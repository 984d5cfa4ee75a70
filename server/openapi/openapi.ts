import fp from 'fastify-plugin'
import type { RecordedRoute } from './api-document'

export const OPENAPI_PATH = '/api/openapi.json'

/**
 * GET /api/openapi.json: an OpenAPI 3.1 description of every /api route, made from the schemas
 * the routes are validated and serialised with (api-document.ts), on the first request for it.
 * Registered before the routes: it records them as they are added. The routes Fastify adds for
 * HEAD are left out, as @fastify/swagger leaves them out.
 */
export default fp<{ version: string }>(
  async (app, { version }) => {
    const routes: RecordedRoute[] = []
    // The route's options themselves: what later hooks add (its group, server/built-in-api.ts) is
    // there when the document is made.
    app.addHook('onRoute', (route) => {
      if (route.method !== 'HEAD') routes.push(route)
    })
    let document: Promise<string> | undefined
    // Made once: the routes cannot change after start.
    const apiDocument = () =>
      (document ??= import('./api-document')
        .then(({ buildApiDocument }) => buildApiDocument(routes, version))
        .catch((error: unknown) => {
          document = undefined // the next request tries again
          throw error
        }))
    // The server tests check their traffic against it (server/test/contract-recorder.ts).
    app.decorate('apiDocument', apiDocument)
    app.get(OPENAPI_PATH, { schema: { hide: true } }, async (_request, reply) =>
      reply
        .header('content-type', 'application/json; charset=utf-8')
        .header('cache-control', 'no-cache')
        .send(await apiDocument()),
    )
  },
  { name: 'openapi' },
)

declare module 'fastify' {
  interface FastifyInstance {
    /** The OpenAPI document of GET /api/openapi.json, as JSON (absent with API_UPSTREAM). */
    apiDocument?: () => Promise<string>
  }
}
