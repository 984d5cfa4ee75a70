import { randomUUID } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import fp from 'fastify-plugin'

/** What an id from a proxy may look like: short, and nothing that could disturb a log line. */
const INCOMING_ID = /^[A-Za-z0-9._:-]{1,128}$/

/**
 * Every request gets an id: on every log line of it (`reqId`) and in its `X-Request-Id` answer,
 * so a user's report, the proxy's log and ours can be matched. Behind a trusted proxy
 * (TRUST_PROXY) the proxy's own X-Request-Id is kept; otherwise a client could choose its id, so
 * a new one is made.
 */
export function requestIdGenerator(trustProxy: boolean) {
  return (request: IncomingMessage): string => {
    const incoming = request.headers['x-request-id']
    if (trustProxy && typeof incoming === 'string' && INCOMING_ID.test(incoming)) return incoming
    return randomUUID()
  }
}

export default fp(
  async (app) => {
    // onRequest, the first hook: even a request refused later (404, 400, 503) carries its id.
    // Callback style, not async: these hooks run on every request, and a promise each is a
    // measurable share of a static file's cost (npm run bench).
    app.addHook('onRequest', (request, reply, done) => {
      reply.header('x-request-id', request.id)
      done()
    })
  },
  { name: 'request-id' },
)
