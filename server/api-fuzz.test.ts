import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import fc from 'fast-check'
import { ADMIN, apiFixture, type ApiFixture } from './test/api-fixture'
import { testStoreName } from './test/test-database'

/**
 * Random input on every body field, path and query of every route of the built-in API: whatever
 * arrives, the answer is never a 500 (and always the standard error shape when it is an error).
 */
let api: ApiFixture
let token: string
let someId: string
before(async () => {
  api = await apiFixture({ authRateLimit: 1_000_000, logLevel: 'warn' })
  token = await api.signIn(ADMIN.email, ADMIN.password)
  someId = await api.addAccount({ email: 'alvo-fuzz@example.com', password: 'senha-do-alvo-fuzz' })
})
after(() => api.close())

/**
 * Random inputs per route: 1000, or API_FUZZ_RUNS. npm test's PostgreSQL pass runs 250 of them
 * (scripts/test.ts): the SQLite pass has just run the 1000, and what PostgreSQL alone refuses (a
 * NUL in text, say) is among the fixed strings above, which a few hundred draws reach.
 */
const RUNS = Number(process.env.API_FUZZ_RUNS ?? 1000)

/** Strings of every kind: any code point (NUL, controls, lone surrogates), and some near-valid ones. */
const text = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 80 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.emailAddress(),
  fc.constantFrom('', ' ', 'a@b.c', 'A'.repeat(43), '\u0000', '\u202e', 'x'.repeat(2000)),
)
/** A field's value: mostly text, sometimes another JSON type. */
const value = fc.oneof(
  { weight: 4, arbitrary: text },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
)
/** A body with the route's fields (each maybe missing), sometimes an extra one or not an object. */
const bodyOf = (fields: string[]) =>
  fc.oneof(
    {
      weight: 8,
      arbitrary: fc.record(Object.fromEntries(fields.map((field) => [field, value])), {
        requiredKeys: [],
      }),
    },
    { weight: 1, arbitrary: fc.dictionary(text, value, { maxKeys: 3 }) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  )

async function neverFails(
  method: 'GET' | 'POST' | 'PATCH',
  url: string,
  body: unknown,
  signedIn: boolean,
) {
  const response = await api.app.inject({
    method,
    url,
    ...(method !== 'GET'
      ? {
          payload: JSON.stringify(body) ?? 'null',
          headers: {
            'content-type': 'application/json',
            ...(signedIn ? { authorization: `Bearer ${token}` } : {}),
          },
        }
      : { headers: signedIn ? { authorization: `Bearer ${token}` } : {} }),
  })
  assert.ok(
    response.statusCode < 500,
    `${method} ${url} ${JSON.stringify(body)} → ${response.statusCode} ${response.body}`,
  )
  if (response.statusCode >= 400) {
    const error = response.json<{ error: { code: unknown; message: unknown } }>().error
    assert.equal(typeof error.code, 'string')
    assert.equal(typeof error.message, 'string')
  }
}

const bodyRoutes: [string, string[], boolean][] = [
  ['/api/auth/login', ['email', 'password'], false],
  ['/api/auth/register', ['name', 'email', 'password'], false],
  ['/api/auth/password-recovery', ['email'], false],
  ['/api/auth/password-reset', ['token', 'password'], false],
  ['/api/auth/password', ['currentPassword', 'newPassword'], true],
]

describe(`no route answers 500, whatever it is sent (${testStoreName()})`, () => {
  for (const [url, fields, signedIn] of bodyRoutes) {
    it(`POST ${url}: ${RUNS} random bodies`, async () => {
      await fc.assert(
        fc.asyncProperty(bodyOf(fields), (body) => neverFails('POST', url, body, signedIn)),
        { numRuns: RUNS },
      )
    })
  }

  it(`PATCH /api/staff/:id: ${RUNS} random ids and bodies`, async () => {
    // Up to Fastify's maxParamLength (100): a longer one is a 414, which error-shape.test.ts
    // covers. Never empty: `PATCH /api/staff/` is a path no operation of the API description
    // has, so the contract check (server/test/contract-recorder.ts) would count it against the
    // document rather than the server. Nor "." or "..": the URL resolves those segments before
    // any server sees them (`/api/staff/.` is `/api/staff/`).
    const id = fc.oneof(
      text.filter(
        (raw) =>
          raw.length > 0 && raw !== '.' && raw !== '..' && encodeURIComponent(raw).length <= 100,
      ),
      fc.uuid().map((uuid) => uuid.toUpperCase()),
      fc.constant(`urn:uuid:${someId}`),
    )
    await fc.assert(
      fc.asyncProperty(id, bodyOf(['status', 'role']), (raw, body) =>
        neverFails('PATCH', `/api/staff/${encodeURIComponent(raw)}`, body, true),
      ),
      { numRuns: RUNS },
    )
  })

  it(`GET /api/staff, /api/auth/me and POST /api/auth/logout: ${RUNS} random queries`, async () => {
    await fc.assert(
      fc.asyncProperty(text, text, async (key, raw) => {
        const query = `?${encodeURIComponent(key)}=${encodeURIComponent(raw)}`
        await neverFails(
          'GET',
          `${raw.length % 2 ? '/api/staff' : '/api/auth/me'}${query}`,
          undefined,
          true,
        )
      }),
      { numRuns: RUNS },
    )
    await neverFails('POST', '/api/auth/logout', {}, false)
  })
})
