import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { OpenApiDocument } from '../openapi/api-description'
import { ADMIN, apiFixture, errorOf, type ApiFixture } from '../test/api-fixture'
import { testStoreName } from '../test/test-database'

/**
 * A small body can still be deep: `[[[[…]]]]` thousands of levels down fits well under the 16 KB
 * limit. Whatever walks a body must not recurse once per level (the stack runs out, and the
 * client gets a 500); such a body is the client's bad input, a 400 like any other.
 */

/** 4,300 levels: about 8.6 KB as arrays. */
const LEVELS = 4300
const deepArray = (levels: number) => `${'['.repeat(levels)}1${']'.repeat(levels)}`
/** Objects cost more bytes a level: arrays and objects in turn fit 4,300 levels in 15 KB. */
const deepMixed = (levels: number) => `${'[{"":'.repeat(levels / 2)}1${'}]'.repeat(levels / 2)}`
/** Objects alone: as deep as 16 KB allows (5 bytes a level). */
const deepObject = (levels: number) => `${'{"":'.repeat(levels)}1${'}'.repeat(levels)}`

let api: ApiFixture
let document: OpenApiDocument
let token: string
let someId: string
before(async () => {
  api = await apiFixture({ authRateLimit: 100_000 })
  token = await api.signIn(ADMIN.email, ADMIN.password)
  someId = (await api.account('fundo')).id
  document = (await api.get('/api/openapi.json')).json<OpenApiDocument>()
})
after(() => api.close())

/** Every operation of the document that takes a JSON body, and its body's first field. */
function operationsWithBody(): { method: string; path: string; field: string | null }[] {
  return Object.entries(document.paths ?? {}).flatMap(([path, operations]) =>
    Object.entries(operations).flatMap(([method, operation]) => {
      const schema = (
        operation.requestBody as
          { content?: Record<string, { schema?: Record<string, unknown> }> } | undefined
      )?.content?.['application/json']?.schema
      if (!schema) return []
      const alternatives = (schema.anyOf as Record<string, unknown>[] | undefined) ?? [schema]
      const properties = alternatives.find((part) => part.properties)?.properties ?? {}
      return [{ method: method.toUpperCase(), path, field: Object.keys(properties)[0] ?? null }]
    }),
  )
}

describe(`deeply nested JSON bodies (${testStoreName()})`, () => {
  it('finds the operations that take a body', () => {
    assert.ok(operationsWithBody().length >= 10, JSON.stringify(operationsWithBody()))
  })

  it(`every operation with a body: ${LEVELS} levels of arrays, objects or both, as the body or in a field, signed in or not, is a 400 invalid_input`, async () => {
    const bodies: [string, string][] = [
      ['arrays', deepArray(LEVELS)],
      ['arrays and objects', deepMixed(LEVELS)],
      ['objects', deepObject(3200)],
    ]
    for (const { method, path, field } of operationsWithBody()) {
      const url = path.replace(/\{[^}]+\}/g, someId)
      for (const [kind, deep] of bodies) {
        // The deep value first, the other fields after it (as an attacker's form would be).
        const rest = field === 'password' ? '' : ',"password":"x"'
        const payloads = [deep, ...(field ? [`{"${field}":${deep}${rest}}`] : [])]
        for (const payload of payloads) {
          assert.ok(payload.length < 16 * 1024, `${payload.length} bytes`)
          for (const signedIn of [false, true]) {
            const response = await api.app.inject({
              method: method as 'POST',
              url,
              payload,
              headers: {
                'content-type': 'application/json',
                ...(signedIn ? { authorization: `Bearer ${token}` } : {}),
              },
            })
            const what = `${method} ${url}, ${kind} ${payload === deep ? 'as the body' : `in "${field}"`}${signedIn ? ', signed in' : ''}`
            // Without a session a signed-in route may refuse first (401): never a 500.
            const expected = signedIn || response.statusCode !== 401 ? 400 : 401
            assert.equal(response.statusCode, expected, `${what}: ${response.body}`)
            if (expected === 400) {
              assert.equal(errorOf(response).code, 'invalid_input', what)
              assert.match(errorOf(response).message, /aninhad/, what)
            }
          }
        }
      }
    }
  })
})
