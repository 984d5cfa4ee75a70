import type { FastifyInstance } from 'fastify'
import { ContractChecker, describeExchange, type Exchange } from './contract-checker'

/**
 * Every /api request a server test makes, with its answer, checked against the app's own OpenAPI
 * document (the one GET /api/openapi.json answers, app.apiDocument in server/openapi/openapi.ts)
 * when the app closes: a test whose traffic breaks the contract fails at its
 * `app.close()`, naming each request (as a curl command) and what was wrong.
 * Apps without the built-in API (API_UPSTREAM mode) have no document and are not checked.
 */
export function recordContract(app: FastifyInstance): void {
  const exchanges: Exchange[] = []
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.url.startsWith('/api/') && !request.url.startsWith('/api/openapi.json')) {
      exchanges.push({
        method: request.method,
        url: request.url,
        headers: Object.fromEntries(
          Object.entries(request.headers).map(([name, value]) => [name, String(value)]),
        ),
        body: request.body,
        status: reply.statusCode,
        responseBody:
          typeof payload === 'string'
            ? payload
            : Buffer.isBuffer(payload)
              ? payload.toString('utf8')
              : '',
      })
    }
    done(null, payload)
  })
  app.addHook('onClose', async () => {
    if (exchanges.length === 0 || !app.apiDocument) return
    const checker = await ContractChecker.create(JSON.parse(await app.apiDocument()))
    const violations = exchanges.flatMap((exchange) =>
      checker.check(exchange).map((problem) => `${problem}\n  ${describeExchange(exchange)}`),
    )
    if (violations.length > 0) {
      throw new Error(
        `${violations.length} answer(s) outside the API contract (GET /api/openapi.json):\n${violations.join('\n')}`,
      )
    }
  })
}
