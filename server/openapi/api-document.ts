import { setImmediate as nextTurn } from 'node:timers/promises'
import swagger from '@fastify/swagger'
import Fastify, { type RouteOptions } from 'fastify'
import { BEARER_SCHEME, completeApiDescription, type OpenApiDocument } from './api-description'
import type { ApiGroup } from './api-groups'

/** What the document needs of a route, as the app's onRoute hook saw it (openapi.ts). */
export type RecordedRoute = Pick<RouteOptions, 'method' | 'url' | 'schema' | 'config'>

/**
 * The OpenAPI document, made by @fastify/swagger from the routes' own schemas, so it cannot drift
 * from them. Not at start: a module of its own (with @fastify/swagger and its YAML writer, a
 * seventh of the server's code), loaded by the first request for the document. The routes the
 * app recorded are registered again on an instance of their own, handlers and validation left
 * out, where @fastify/swagger learns them as it would have learnt them on the app.
 */
export async function buildApiDocument(
  routes: readonly RecordedRoute[],
  version: string,
): Promise<string> {
  const groups: ApiGroup[] = []
  const describer = Fastify({ exposeHeadRoutes: false })
  // Only the schemas are read: nothing is compiled from them here.
  describer.setValidatorCompiler(() => () => true)
  describer.setSerializerCompiler(() => (data) => JSON.stringify(data))
  await describer.register(swagger, {
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
        groups,
      ) as never,
  })
  // A turn of the event loop between the steps: made in one go, the document held it 58-68 ms
  // (the first request for it, by hand, 2026-12-01), past the 50 ms no request may hold it for;
  // the plugin's start and the document's making take about 30 ms each.
  await nextTurn()
  for (const route of routes) {
    const group = route.config?.apiGroup
    if (group && !groups.includes(group)) groups.push(group)
    describer.route({
      method: route.method,
      url: route.url,
      ...(route.schema
        ? { schema: group ? { ...route.schema, tags: [group.name] } : route.schema }
        : {}),
      ...(route.config ? { config: route.config } : {}),
      handler: async () => null,
    })
  }
  await nextTurn()
  await describer.ready()
  await nextTurn()
  const document = JSON.stringify(describer.swagger())
  await describer.close()
  return document
}
