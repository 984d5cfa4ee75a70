import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { OpenApiDocument, Operation } from '../openapi/api-description'
import { ADMIN, apiFixture, errorOf, type ApiFixture } from '../test/api-fixture'
import { testStoreName } from '../test/test-database'

/**
 * The session is checked before anything about the request: an anonymous caller who sends a
 * malformed body, ids or query to a route that needs a session gets the same 401 as with good
 * ones, so learns nothing of what the route takes. Likewise a staff member calling an admin's
 * route gets 403 whatever they send. Every secured operation of the API document is tried.
 */

/** Where the admins' routes live: the plugins guarded for admins (access/guarded-routes.ts). */
/** An operation a permission guards (x-permission; docs/roles-and-teams.md): Equipe holds none. */
const needsPermission = (operation: Operation) => {
  const access = (operation as Record<string, unknown>)['x-permission']
  return access !== 'signed-in' && access !== 'public'
}

let api: ApiFixture
let document: OpenApiDocument
let staff: { email: string; password: string }
before(async () => {
  api = await apiFixture({ authRateLimit: 100_000 })
  document = (await api.get('/api/openapi.json')).json<OpenApiDocument>()
  staff = await api.account('equipe')
})
after(() => api.close())

interface Secured {
  method: string
  path: string
  operation: Operation
}

function securedOperations(): Secured[] {
  return Object.entries(document.paths ?? {}).flatMap(([path, operations]) =>
    Object.entries(operations)
      .filter(([, operation]) => (operation.security ?? []).length > 0)
      .map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })),
  )
}

/** Malformed requests to an operation: bad ids, a bad query, a body that is not JSON or wrong. */
function malformed({ method, path, operation }: Secured) {
  const url = path.replace(/\{[^}]+\}/g, 'nao-e-id%00')
  const queryNames = (operation.parameters ?? [])
    .filter((param) => param.in === 'query')
    .map((param) => param.name)
  const query = queryNames.map((name) => `${name}=%00-1`).join('&')
  const bodies = method === 'GET' ? [undefined] : ['{"nao":', '[1,2,3]', '{"campo":"x\\u0000"}']
  return bodies.flatMap((payload) =>
    [url, ...(query ? [`${url}?${query}`] : [])].map((target) => ({
      method: method as 'POST',
      url: target,
      ...(payload === undefined
        ? {}
        : { payload, headers: { 'content-type': 'application/json' } }),
    })),
  )
}

describe(`the session before the schema (${testStoreName()})`, () => {
  it('finds the secured operations, admins’ and others', () => {
    const all = securedOperations()
    const admins = all.filter(({ operation }) => needsPermission(operation))
    assert.ok(admins.length >= 10 && all.length - admins.length >= 10, `${all.length} operations`)
  })

  it('every secured operation, malformed and with no token or a wrong one, answers 401', async () => {
    for (const secured of securedOperations()) {
      for (const request of malformed(secured)) {
        for (const authorization of [undefined, 'Bearer x', 'Basic Zm9vOmJhcg==']) {
          const response = await api.app.inject({
            ...request,
            headers: { ...request.headers, ...(authorization ? { authorization } : {}) },
          })
          const what = `${request.method} ${request.url} ${request.payload ?? ''} (${authorization ?? 'no token'})`
          assert.equal(response.statusCode, 401, `${what}: ${response.body}`)
          assert.equal(response.headers['www-authenticate'], 'Bearer', what)
          assert.equal(errorOf(response).code, 'unauthenticated', what)
        }
      }
    }
  })

  it('every operation that needs a permission, malformed, answers 403 to Equipe; the others do not', async () => {
    for (const secured of securedOperations()) {
      const adminsOnly = needsPermission(secured.operation)
      // Sessions of their own for each operation: a body the route ignores (logout's) reaches it.
      const staffToken = await api.signIn(staff.email, staff.password)
      const admin = await api.signIn(ADMIN.email, ADMIN.password)
      for (const request of malformed(secured)) {
        const what = `${request.method} ${request.url} ${request.payload ?? ''}`
        const asStaff = await api.app.inject({
          ...request,
          headers: { ...request.headers, authorization: `Bearer ${staffToken}` },
        })
        if (adminsOnly) {
          assert.equal(asStaff.statusCode, 403, `${what}: ${asStaff.body}`)
          assert.equal(errorOf(asStaff).code, 'forbidden', what)
        } else {
          assert.notEqual(asStaff.statusCode, 403, `${what}: ${asStaff.body}`)
          assert.ok(asStaff.statusCode < 500, `${what}: ${asStaff.body}`)
        }
        // An admin gets past both checks, to the schema's 400 (or the route's own answer).
        if (adminsOnly) {
          const asAdmin = await api.app.inject({
            ...request,
            headers: { ...request.headers, authorization: `Bearer ${admin}` },
          })
          assert.ok(![401, 403].includes(asAdmin.statusCode), `${what}: ${asAdmin.body}`)
          assert.ok(asAdmin.statusCode < 500, `${what}: ${asAdmin.body}`)
        }
      }
    }
  })
})
