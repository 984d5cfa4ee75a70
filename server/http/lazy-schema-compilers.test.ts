import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import Fastify from 'fastify'
import { Type } from 'typebox'
import {
  lazyFactory,
  lazySchemaController,
  lazySerializer,
  lazyValidator,
  plainSerializers,
} from './lazy-schema-compilers'
import { serializerSchema } from './serializer-schemas'

describe('lazy schema compilers', () => {
  it('compile a validator on its first call, once, and pass on its errors', () => {
    const compiled: object[] = []
    const factory = lazyFactory(
      () => (route: object) => {
        compiled.push(route)
        // As ajv's are: false when invalid, with the reasons on the function's `errors`.
        function validate(value: unknown) {
          validate.errors = value === 'ok' ? null : [{ message: 'not ok' }]
          return value === 'ok'
        }
        validate.errors = null as unknown
        return validate
      },
      lazyValidator,
    )
    const validate = factory({}, {})({ url: '/a' })
    assert.equal(compiled.length, 0, 'nothing compiled before the first call')
    assert.equal(validate('no'), false)
    assert.deepEqual(validate.errors, [{ message: 'not ok' }])
    assert.equal(validate('ok'), true)
    assert.equal(validate.errors, null)
    assert.deepEqual(compiled, [{ url: '/a' }], 'compiled once')
  })

  it('compile a serializer on its first call, once', () => {
    let compiles = 0
    const factory = lazyFactory(
      () => () => {
        compiles += 1
        return (document: unknown) => JSON.stringify(document)
      },
      lazySerializer,
    )
    const serialize = factory({}, {})({ url: '/a', httpStatus: '200' })
    assert.equal(compiles, 0)
    assert.equal(serialize({ a: 1 }), '{"a":1}')
    assert.equal(serialize({ a: 2 }), '{"a":2}')
    assert.equal(compiles, 1)
  })

  it("in Fastify: a route's schemas are compiled when it is called, not when the server starts", async () => {
    const app = Fastify({ schemaController: lazySchemaController() })
    // A schema ajv cannot compile: with Fastify's eager compilers, ready() would throw.
    app.post('/broken', { schema: { body: { type: 'no-such-type' } } }, () => ({ ok: true }))
    app.post(
      '/checked',
      {
        schema: {
          body: {
            type: 'object',
            properties: { n: { type: 'integer' } },
            required: ['n'],
            additionalProperties: false,
          },
          response: { 200: { type: 'object', properties: { n: { type: 'integer' } } } },
        },
      },
      (request) => ({ n: (request.body as { n: number }).n, dropped: 'by the serializer' }),
    )
    await app.ready()
    const broken = await app.inject({ method: 'POST', url: '/broken', payload: {} })
    assert.equal(broken.statusCode, 500)
    // The working route checks and writes exactly as Fastify's own compilers would.
    const wrong = await app.inject({ method: 'POST', url: '/checked', payload: { n: 'x' } })
    assert.equal(wrong.statusCode, 400)
    assert.match(wrong.json<{ message: string }>().message, /body\/n must be integer/)
    const right = await app.inject({ method: 'POST', url: '/checked', payload: { n: 3 } })
    assert.deepEqual(right.json(), { n: 3 })
    await app.close()
  })
  it("give the serializer each answer's schema as serializer-schemas.ts writes it", () => {
    const given: unknown[] = []
    const factory = plainSerializers(() => (route: object) => {
      given.push((route as { schema: unknown }).schema)
      return (document: unknown) => JSON.stringify(document)
    })
    const schema = Type.Object({
      at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    })
    factory({}, {})({ schema, method: 'GET', url: '/a', httpStatus: '200' })
    assert.deepEqual(given, [serializerSchema(schema)])
    assert.doesNotMatch(JSON.stringify(given), /anyOf/)
  })
})
