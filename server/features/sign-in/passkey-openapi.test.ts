import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { OpenApiDocument } from '../../openapi/api-description'
import { apiFixture, type ApiFixture } from '../../test/api-fixture'

/** The passkey calls are in GET /api/openapi.json, each with its answers' schemas. */
let api: ApiFixture
let document: OpenApiDocument
before(async () => {
  api = await apiFixture()
  document = (await api.get('/api/openapi.json')).json<OpenApiDocument>()
})
after(() => api.close())

const CALLS: [path: string, method: string, success: string, bearer: boolean, errors: string[]][] =
  [
    ['/api/me/passkeys', 'get', '200', true, ['401']],
    ['/api/me/passkeys/options', 'post', '200', true, ['401']],
    ['/api/me/passkeys', 'post', '201', true, ['400', '401']],
    ['/api/me/passkeys/{id}', 'patch', '200', true, ['400', '401', '404']],
    ['/api/me/passkeys/{id}', 'delete', '204', true, ['400', '401', '404']],
    ['/api/auth/passkey/options', 'post', '200', false, ['400', '401', '429']],
    ['/api/auth/passkey', 'post', '200', false, ['400', '401', '403', '429']],
  ]

describe('the passkey calls in the OpenAPI document', () => {
  for (const [path, method, success, bearer, errors] of CALLS) {
    it(`${method.toUpperCase()} ${path}: ${success} and ${errors.join(', ')} described`, () => {
      const operation = document.paths?.[path]?.[method]
      assert.ok(operation, `${method} ${path} is missing`)
      const answers = operation.responses ?? {}
      const ok = answers[success]
      assert.ok(ok, `no ${success}`)
      if (success !== '204') {
        const schema = (ok.content?.['application/json'] as { schema?: unknown } | undefined)
          ?.schema
        assert.ok(schema, `${success} has no JSON schema`)
      }
      for (const status of errors) assert.ok(answers[status], `no ${status}`)
      assert.equal(Boolean(operation.security?.length), bearer, 'bearer security')
      if (method !== 'get' && method !== 'delete' && !path.endsWith('/passkeys/options')) {
        assert.ok(operation.requestBody, 'a request body')
      }
    })
  }
})
