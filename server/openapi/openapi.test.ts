import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import SwaggerParser from '@apidevtools/swagger-parser'
import { apiFixture, type ApiFixture } from '../test/api-fixture'
import type { OpenApiDocument } from './api-description'
import { API_GROUPS } from './api-groups'

let api: ApiFixture
let document: OpenApiDocument
before(async () => {
  api = await apiFixture()
  const response = await api.get('/api/openapi.json')
  assert.equal(response.statusCode, 200)
  assert.match(String(response.headers['content-type']), /^application\/json/)
  document = response.json<OpenApiDocument>()
})
after(() => api.close())

describe('GET /api/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document (@apidevtools/swagger-parser)', async () => {
    assert.equal(document.openapi, '3.1.0')
    // validate() dereferences in place: give it a copy.
    await SwaggerParser.validate(structuredClone(document) as never)
  })

  it('describes every /api route the server has, and nothing else', () => {
    const documented = Object.entries(document.paths ?? {}).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
    )
    assert.ok(documented.includes('POST /api/auth/login'), documented.join(', '))
    for (const entry of documented) {
      const [method = '', path = ''] = entry.split(' ')
      assert.ok(path.startsWith('/api/'), entry)
      const url = path.replace(/\{([^}]+)\}/g, ':$1')
      assert.ok(api.app.hasRoute({ method, url }), `${entry} is documented but not served`)
    }
  })

  it('declares the bearer scheme and, on every operation, the standard error answers with examples', () => {
    const components = document.components as {
      securitySchemes: Record<string, { type: string; scheme: string }>
    }
    assert.deepEqual(
      {
        type: components.securitySchemes.bearer?.type,
        scheme: components.securitySchemes.bearer?.scheme,
      },
      { type: 'http', scheme: 'bearer' },
    )
    for (const [path, operations] of Object.entries(document.paths ?? {})) {
      for (const [method, operation] of Object.entries(operations)) {
        assert.ok(operation.operationId, `${method} ${path}: operationId`)
        for (const status of ['500', '503']) {
          const answer = operation.responses?.[status]
          assert.ok(answer, `${method} ${path}: ${status}`)
          assert.ok(
            JSON.stringify(answer).includes('"example"'),
            `${method} ${path}: ${status} example`,
          )
        }
      }
    }
  })

  it('files every operation under one of its groups, and says which operations are public', () => {
    const groups: string[] = (document.tags as { name: string }[]).map((tag) => tag.name)
    // The shared groups, and any a feature gives inline (server/built-in-api.ts), each once.
    assert.equal(new Set(groups).size, groups.length)
    for (const { name } of Object.values(API_GROUPS)) assert.ok(groups.includes(name), name)
    for (const [path, operations] of Object.entries(document.paths ?? {})) {
      for (const [method, operation] of Object.entries(operations)) {
        const where = `${method.toUpperCase()} ${path}`
        assert.equal(operation.tags?.length, 1, where)
        assert.ok(groups.includes(String(operation.tags?.[0])), where)
        assert.ok(Array.isArray(operation.security), `${where}: security stated, [] when public`)
      }
    }
    const login = document.paths?.['/api/auth/login']?.post
    assert.deepEqual(login?.security, [])
    assert.deepEqual(document.paths?.['/api/me/sessions']?.get?.security, [{ bearer: [] }])
  })
})
