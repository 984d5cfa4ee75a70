import { createServer, type RequestListener, type Server } from 'node:http'

/** How long slow or idle clients may hold a connection (docs/operations.md, "Under load"). */
export interface ServerTimeouts {
  /** From the first byte of a request to the end of its headers (slowloris). */
  headersMs: number
  /** From the first byte of a request to the end of its body (a body sent drop by drop). */
  requestMs: number
  /** An idle keep-alive connection: longer than the usual 60 s of load balancers, so they close first. */
  keepAliveMs: number
}

export const DEFAULT_TIMEOUTS: ServerTimeouts = {
  headersMs: 10_000,
  requestMs: 30_000,
  keepAliveMs: 72_000,
}

/**
 * The Node server Fastify runs on. Node enforces the headers and request timeouts only when it
 * checks its connections, every 30 s by default: a 30 s limit then held a slow body for ~40 s.
 * Checking every second (or a tenth of the shortest limit, for tests) keeps each limit within a
 * second of what it says.
 */
export function serverFactory(timeouts: ServerTimeouts) {
  return (handler: RequestListener): Server => {
    const checkEveryMs = Math.max(
      5,
      Math.min(1000, Math.floor(Math.min(timeouts.headersMs, timeouts.requestMs) / 10)),
    )
    const server = createServer(
      {
        headersTimeout: timeouts.headersMs,
        requestTimeout: timeouts.requestMs,
        connectionsCheckingInterval: checkEveryMs,
      },
      handler,
    )
    server.keepAliveTimeout = timeouts.keepAliveMs
    return server
  }
}
