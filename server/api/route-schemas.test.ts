import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import AjvCompiler from '@fastify/ajv-compiler'
import SerializerSelector from '@fastify/fast-json-stringify-compiler'
import Fastify, { type RouteOptions } from 'fastify'
import { AJV_OPTIONS } from '../http/lazy-schema-compilers'
import { serializerSchema } from '../http/serializer-schemas'
import { MailOutbox } from '../mail/outbox'
import { CapturedMail } from '../test/api-fixture'
import { testDatabase } from '../test/test-database'
import type { Database } from '../db/database'
import { loadConfig } from '../config/config'
import builtInApi from '../built-in-api'

/**
 * Every route of the built-in API carries its schemas: the request's (body and params, where it
 * takes them) and an answer for each status it gives, so validation, the handler's types, the
 * serialisation and the API description all come from one place.
 */
let database: Database
const routes: RouteOptions[] = []
before(async () => {
  database = await testDatabase()
  const app = Fastify({ logger: false })
  app.addHook('onRoute', (route) => void routes.push(route))
  await app.register(builtInApi, {
    config: loadConfig({ ADMIN_PASSWORD: 'senha-do-chefe-1' }),
    database,
    outbox: new MailOutbox({
      db: database.db,
      engine: database.engine,
      mailer: new CapturedMail(),
      log: app.log,
    }),
  })
  await app.ready()
  await app.close()
})
after(() => database.close())

const apiRoutes = () => routes.filter((route) => route.url.startsWith('/api/'))
const name = (route: RouteOptions) => `${String(route.method)} ${route.url}`

describe('route schemas', () => {
  it('finds the API routes', () => {
    assert.ok(apiRoutes().length >= 8, `only ${apiRoutes().length} /api routes seen`)
  })

  it('gives every /api route a response schema with its success and its errors', () => {
    for (const route of apiRoutes()) {
      const response = route.schema?.response as Record<string, unknown> | undefined
      assert.ok(response, `${name(route)} has no response schema`)
      const statuses = Object.keys(response).map(Number)
      assert.ok(
        // A browser navigation's success is a redirect (a sign-in provider's start and callback).
        statuses.some((status) => (status >= 200 && status < 300) || status === 302),
        `${name(route)} describes no success`,
      )
      assert.ok(
        statuses.some((status) => status >= 400),
        `${name(route)} describes no error`,
      )
    }
  })

  it('gives every /api route that takes a body or parameters a schema for them', () => {
    for (const route of apiRoutes()) {
      const methods = [route.method].flat()
      if (methods.some((method) => ['POST', 'PUT', 'PATCH'].includes(method))) {
        // Calls that only name their target take no body.
        const takesBody =
          ![
            '/api/auth/logout',
            '/api/me/session/renew',
            '/api/me/totp',
            '/api/me/passkeys/options',
          ].includes(route.url) &&
          !/^\/api\/staff\/:id\/(unlock|sign-out|password-reset|invitation|anonymise)$/.test(
            route.url,
          )
        if (takesBody) assert.ok(route.schema?.body, `${name(route)} has no body schema`)
      }
      if (route.url.includes('/:')) {
        assert.ok(route.schema?.params, `${name(route)} has no params schema`)
      }
    }
  })
  // The server's Ajv does not check a schema against the meta-schema (AJV_OPTIONS says why):
  // this does, for every part of every route it validates, with the server's options otherwise.
  it('gives every /api route request schemas that are valid JSON Schema', () => {
    const checked = AjvCompiler()({}, { customOptions: { ...AJV_OPTIONS, validateSchema: true } })
    const compile = (schema: unknown, route: RouteOptions, httpPart: string) =>
      checked({ schema, method: String(route.method), url: route.url, httpPart })
    // The check is a real one: a schema that breaks the meta-schema is refused.
    assert.throws(
      () => compile({ type: 'string', maxLength: 'cinco' }, apiRoutes()[0]!, 'body'),
      /schema is invalid/,
    )
    let parts = 0
    for (const route of apiRoutes()) {
      for (const httpPart of ['body', 'querystring', 'params', 'headers'] as const) {
        const schema = route.schema?.[httpPart]
        if (schema === undefined) continue
        assert.doesNotThrow(() => compile(schema, route, httpPart), `${name(route)} ${httpPart}`)
        parts += 1
      }
    }
    assert.ok(parts >= 50, `only ${parts} request schemas checked`)
  })
  // fast-json-stringify picks a union's branch with a validator of its own, made and compiled at
  // an answer's first write (http/serializer-schemas.ts): the server gives it the answers'
  // schemas rewritten so that none keeps one: the sign-in's answers (a session or a next step)
  // were the last, until unions of objects were given as one object.
  it('writes every /api answer without a validator', () => {
    const debug = SerializerSelector()({}, { mode: 'debug' }) as unknown as (route: object) => {
      code: string
    }
    const needsValidator: string[] = []
    for (const route of apiRoutes()) {
      if ([route.method].flat().includes('HEAD')) continue
      for (const [status, schema] of Object.entries(route.schema?.response ?? {})) {
        const { code } = debug({
          schema: serializerSchema(schema),
          method: String(route.method),
          url: route.url,
          httpStatus: status,
        })
        if (code.includes('getSchemaValidator')) needsValidator.push(`${name(route)} ${status}`)
      }
    }
    assert.deepEqual(needsValidator.sort(), [])
  })
})
