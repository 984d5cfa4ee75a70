import swagger from '@fastify/swagger'
import fp from 'fastify-plugin'
import { BEARER_SCHEME, completeApiDescription, type OpenApiDocument } from './api-description'

export const OPENAPI_PATH = '/api/openapi.json'

/**
 * GET /api/openapi.json: an OpenAPI 3.1 description of every /api route, made by @fastify/swagger
 * from the schemas the routes are validated and serialised with, so it cannot drift from them.
 * Registered before the routes: @fastify/swagger learns them as they are added.
 */
export default fp<{ version: string }>(
  async (app, { version }) => {
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Painel API',
          version,
          description:
            'The staff panel’s API. Every answer that is not a success has the body `{"error":{"code","message"}}`, the message in pt-BR for people, the code for programs; every answer carries an `X-Request-Id` that is also on the server’s log lines.',
          // Who answers for a deployed panel is whoever runs it.
          contact: { name: 'The team that runs this panel' },
        },
        // Here, not only in transformObject: @fastify/swagger looks up the schemes routes name.
        components: { securitySchemes: { bearer: BEARER_SCHEME } },
      },
      transformObject: (documentObject) =>
        completeApiDescription(
          ('openapiObject' in documentObject
            ? documentObject.openapiObject
            : documentObject.swaggerObject) as unknown as OpenApiDocument,
        ) as never,
    })
    let document: string | undefined
    app.get(OPENAPI_PATH, { schema: { hide: true } }, async (_request, reply) => {
      // Made once: the routes cannot change after start.
      document ??= JSON.stringify(app.swagger())
      return reply
        .header('content-type', 'application/json; charset=utf-8')
        .header('cache-control', 'no-cache')
        .send(document)
    })
  },
  { name: 'openapi' },
)
