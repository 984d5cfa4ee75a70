import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import fc from 'fast-check'
import { apiFixture, type ApiFixture } from '../test/api-fixture'
import { ContractChecker, describeExchange, type Exchange } from '../test/contract-checker'
import { arbitraryFor, deeplyNestedJson, type JsonSchema } from '../test/schema-arbitrary'
import type { OpenApiDocument, Operation } from './api-description'

/**
 * Requests made from the document alone, for every operation in it: bodies, parameters and
 * credentials that fit the schemas (mostly) or do not (the rest). Whatever the server answers,
 * it must not be a 500, and it must be an answer the document lists, in the shape it gives.
 * CONTRACT_FUZZ_RUNS sets the number of requests per operation (200 unless set); a failure
 * prints the request as a curl command, and fast-check's seed to replay the run.
 */

const RUNS = Number(process.env.CONTRACT_FUZZ_RUNS ?? 200)

let api: ApiFixture
let document: OpenApiDocument
let checker: ContractChecker
before(async () => {
  api = await apiFixture({ authRateLimit: 100_000, logLevel: 'silent' })
  document = (await api.get('/api/openapi.json')).json<OpenApiDocument>()
  checker = await ContractChecker.create(document)
})
after(() => api.close())

const resolve = (ref: string): JsonSchema => {
  let node: unknown = document
  for (const part of ref.replace(/^#\//, '').split('/')) {
    node = (node as Record<string, unknown>)[part]
  }
  return node as JsonSchema
}

/** A body sent as this text as it is. */
class DeepJson {
  constructor(readonly text: string) {}
}

interface FuzzRequest {
  url: string
  /** A JSON value, or JSON text (a deeply nested body, which JSON.stringify cannot write). */
  body: unknown
  credentials: 'valid' | 'none' | 'garbage'
  remoteAddress: string
}

function requestArbitrary(path: string, operation: Operation): fc.Arbitrary<FuzzRequest> {
  const parameters = (operation.parameters ?? []) as {
    in: string
    name: string
    required?: boolean
    schema?: JsonSchema
  }[]
  const valueOf = (schema: JsonSchema | undefined) =>
    fc
      .oneof(
        { weight: 4, arbitrary: arbitraryFor(schema ?? {}, resolve) },
        { weight: 1, arbitrary: fc.string({ maxLength: 200 }) },
      )
      .map((value) => (typeof value === 'string' ? value : JSON.stringify(value)))
  const pathValues = fc.record(
    Object.fromEntries(
      parameters
        .filter((param) => param.in === 'path')
        // Never empty, "." or "..": as a path segment those are no value at all (every URL parser,
        // light-my-request's included, folds `/api/staff/.` into `/api/staff/`, another operation).
        .map((param) => [
          param.name,
          valueOf(param.schema).filter((value) => !['', '.', '..'].includes(value)),
        ]),
    ),
  )
  const queryParameters = parameters.filter((param) => param.in === 'query')
  const queryValues = fc.record(
    Object.fromEntries(queryParameters.map((param) => [param.name, valueOf(param.schema)])),
    { requiredKeys: queryParameters.filter((param) => param.required).map((param) => param.name) },
  )
  const bodySchema = (
    operation.requestBody as { content?: Record<string, { schema?: JsonSchema }> } | undefined
  )?.content?.['application/json']?.schema
  const fields = Object.keys(
    (bodySchema?.anyOf ?? [bodySchema]).find((part) => part?.properties)?.properties ?? {},
  )
  const body = bodySchema
    ? fc.oneof(
        { weight: 4, arbitrary: arbitraryFor(bodySchema, resolve) },
        { weight: 1, arbitrary: fc.jsonValue() },
        // Nested thousands of levels deep: whatever walks a body by recursion overflows.
        { weight: 1, arbitrary: deeplyNestedJson(fields).map((text) => new DeepJson(text)) },
      )
    : fc.constant(undefined)
  const credentials: fc.Arbitrary<FuzzRequest['credentials']> =
    operation.security && operation.security.length > 0
      ? fc.constantFrom('valid', 'valid', 'valid', 'none', 'garbage')
      : fc.constant('none')
  return fc.record({
    url: fc.tuple(pathValues, queryValues).map(([values, query]) => {
      const filled = path.replace(/\{([^}]+)\}/g, (_, name: string) =>
        encodeURIComponent(String(values[name])),
      )
      const search = new URLSearchParams(query as Record<string, string>).toString()
      return search ? `${filled}?${search}` : filled
    }),
    body,
    credentials,
    remoteAddress: fc.ipV4(),
  })
}

describe('requests generated from the API description', () => {
  it('finds operations to try', () => {
    const count = Object.values(document.paths ?? {}).flatMap((ops) => Object.keys(ops)).length
    assert.ok(count >= 5, `only ${count} operations`)
  })

  let accounts = 0

  it(`every operation, ${RUNS} requests each: no 500, every answer as documented`, async (t) => {
    for (const [path, operations] of Object.entries(document.paths ?? {})) {
      for (const [method, operation] of Object.entries(operations)) {
        await t.test(`${method.toUpperCase()} ${path}`, async () => {
          // An admin of its own for each operation: one operation's lock-outs, sign-outs and
          // password changes never spoil the next one's credentials.
          accounts += 1
          const email = `fuzz-${accounts}@example.com`
          const password = 'senha-do-fuzz-1'
          await api.addAccount({ email, password, role: 'admin' })
          const token = await api.signIn(email, password)
          await fc.assert(
            fc.asyncProperty(requestArbitrary(path, operation), async (request) => {
              const headers: Record<string, string> =
                request.credentials === 'valid'
                  ? { authorization: `Bearer ${token}` }
                  : request.credentials === 'garbage'
                    ? { authorization: 'Bearer x' }
                    : {}
              const response = await api.app.inject({
                method: method.toUpperCase() as 'GET',
                url: request.url,
                headers:
                  request.body === undefined
                    ? headers
                    : { ...headers, 'content-type': 'application/json' },
                remoteAddress: request.remoteAddress,
                ...(request.body === undefined
                  ? {}
                  : {
                      payload:
                        request.body instanceof DeepJson
                          ? request.body.text
                          : JSON.stringify(request.body),
                    }),
              })
              const exchange: Exchange = {
                method: method.toUpperCase(),
                url: request.url,
                headers,
                body: request.body instanceof DeepJson ? request.body.text : request.body,
                status: response.statusCode,
                responseBody: response.body,
              }
              const problems = checker.check(exchange)
              if (response.statusCode >= 500) problems.unshift(`answered ${response.statusCode}`)
              if (problems.length > 0) {
                throw new Error(`${problems.join('; ')}\n  ${describeExchange(exchange)}`)
              }
            }),
            { numRuns: RUNS, endOnFailure: true },
          )
        })
      }
    }
  })
})
