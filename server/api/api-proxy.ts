import { connect } from 'node:net'
import proxy from '@fastify/http-proxy'
import fp from 'fastify-plugin'
import { apiError } from '../http/errors'

/**
 * API_UPSTREAM: the panel in front of an existing backend. Every /api/* request goes there, the
 * part after /api appended to API_UPSTREAM (`API_UPSTREAM=http://backend:3000/api` sends
 * `/api/auth/login` to `http://backend:3000/api/auth/login`). The built-in API and its database
 * are not started.
 */
export default fp<{ upstream: string }>(
  async (app, { upstream }) => {
    const url = new URL(upstream)
    await app.register(proxy, {
      upstream: url.origin,
      prefix: '/api',
      rewritePrefix: url.pathname.replace(/\/+$/, ''),
      // The backend sees who really asked, and over which scheme and host.
      replyOptions: {
        // The backend unreachable or failing mid-answer: a 502 in our shape, the cause in the log.
        onError: (reply, { error }) => {
          reply.log.warn({ err: error }, 'API upstream did not answer')
          reply.send(apiError(502, 'bad_gateway', 'upstream_unavailable'))
        },
        rewriteRequestHeaders: (request, headers) => ({
          ...headers,
          'x-forwarded-for': [request.headers['x-forwarded-for'], request.ip]
            .filter(Boolean)
            .join(', '),
          'x-forwarded-proto': request.protocol,
          'x-forwarded-host': request.host,
          'x-request-id': request.id,
        }),
      },
    })
  },
  { name: 'api-proxy' },
)

/** Readiness in proxy mode: the upstream accepts a TCP connection within the time given. */
export function upstreamAnswers(upstream: string, timeoutMs: number): Promise<boolean> {
  const url = new URL(upstream)
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80))
  return new Promise((resolve) => {
    const socket = connect({ host: url.hostname, port, timeout: timeoutMs })
    const done = (answer: boolean) => {
      socket.destroy()
      resolve(answer)
    }
    socket.once('connect', () => done(true))
    socket.once('timeout', () => done(false))
    socket.once('error', () => done(false))
  })
}
