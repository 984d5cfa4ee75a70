import { Server as NetServer, type Socket } from 'node:net'
import type { ServerResponse } from 'node:http'
import fp from 'fastify-plugin'
import { apiMessages } from './messages'
import { errorBody } from './errors'

export interface DrainOptions {
  /** How long requests in flight get to finish before their connections are cut (ms). */
  graceMs: number
  /**
   * How long a keep-alive connection with no request may stay open once the drain starts (ms).
   * Not zero: a client that has just read an answer is writing its next request, which may be on
   * the wire already; closing at that moment resets it. A short wait lets that request arrive and
   * get its 503 with `Connection: close`, while a connection that is truly idle closes quickly.
   */
  idleCloseMs: number
}

/**
 * idleCloseMs: a second. At 250 ms, on a busy machine (drain-process.test.ts during a test run
 * beside a build, load average 10), 16 of 50 connections were reset: a client late with its next
 * request, or the server late reading it (which the check after input, below, covers). A second
 * costs a shutdown at most that much.
 */
export const DEFAULT_DRAIN: DrainOptions = { graceMs: 10_000, idleCloseMs: 1000 }

/** What a request that arrives during the drain is told to wait before trying again (seconds). */
export const DRAIN_RETRY_AFTER_SECONDS = 5

/**
 * The graceful part of `app.close()` (SIGTERM). Runs first, as a preClose hook:
 * 1. the listener stops accepting connections;
 * 2. every answer from now on says `Connection: close`, so clients stop reusing the connection and
 *    Node closes it once the answer is written;
 * 3. a request that arrives on an open connection gets 503 in the standard shape, Retry-After;
 * 4. connections with no request in flight are closed (after idleCloseMs);
 * 5. requests in flight finish, for graceMs at most; then what is left is cut.
 * Only then does Fastify go on closing (the database's onClose hooks run after the last answer).
 */
export default fp<DrainOptions>(
  async (app, options) => {
    let draining = false
    // Answers that stay open until told (the session streams): told here, as the drain starts,
    // or they would hold it for its whole grace.
    const drainStarted = new AbortController()
    app.decorate('drainStarted', drainStarted.signal)
    const sockets = new Set<Socket>()
    const requestsOn = new Map<Socket, number>()

    const closeIfIdle = (socket: Socket) => {
      if (!draining || socket.destroyed || (requestsOn.get(socket) ?? 0) > 0) return
      // end(), not destroy(): a FIN the client reads as "reconnect", never a reset.
      socket.end()
    }
    // The check waits for setImmediate, which runs after the loop has read its sockets: on a
    // busy machine the timer can come due together with a request that is already here, and
    // timers run before input is read; closing then would cut that request (a reset, no answer).
    const scheduleIdleClose = (socket: Socket) =>
      setTimeout(() => setImmediate(() => closeIfIdle(socket)), options.idleCloseMs).unref()

    const server = app.server
    server.on('connection', (socket: Socket) => {
      sockets.add(socket)
      socket.once('close', () => {
        sockets.delete(socket)
        requestsOn.delete(socket)
      })
    })
    // A second 'request' listener: only counts; Fastify's own handler answers.
    server.on('request', (_request, response: ServerResponse) => {
      const socket = response.socket
      if (!socket) return
      requestsOn.set(socket, (requestsOn.get(socket) ?? 0) + 1)
      response.once('close', () => {
        requestsOn.set(socket, (requestsOn.get(socket) ?? 1) - 1)
        if (draining) scheduleIdleClose(socket)
      })
    })

    app.addHook('onRequest', (request, reply, done) => {
      if (!draining) return done()
      request.log.info('draining: refusing a new request')
      request.refusal = 'draining'
      void reply
        .code(503)
        .header('retry-after', String(DRAIN_RETRY_AFTER_SECONDS))
        .header('connection', 'close')
        .send(errorBody('service_unavailable', apiMessages.restarting))
    })
    app.addHook('onSend', (_request, reply, payload, done) => {
      if (draining) reply.header('connection', 'close')
      done(null, payload)
    })

    app.addHook('preClose', async () => {
      draining = true
      drainStarted.abort()
      if (!server.listening) return
      const allClosed = new Promise<void>((resolve) => {
        // net.Server's close, not http.Server's: the latter destroys every idle connection at
        // once, resetting the requests that are on their way in (see idleCloseMs).
        NetServer.prototype.close.call(server, () => resolve())
      })
      for (const socket of sockets) scheduleIdleClose(socket)
      let timer: NodeJS.Timeout | undefined
      const outOfTime = new Promise<'out of time'>((resolve) => {
        timer = setTimeout(() => resolve('out of time'), options.graceMs)
      })
      if ((await Promise.race([allClosed, outOfTime])) === 'out of time') {
        const inFlight = [...requestsOn.values()].reduce((sum, count) => sum + count, 0)
        app.log.warn(
          { connections: sockets.size, requestsInFlight: inFlight },
          `drain: ${options.graceMs} ms passed, cutting the connections left`,
        )
        for (const socket of sockets) socket.destroy()
        await allClosed
      }
      clearTimeout(timer)
    })
  },
  { name: 'drain' },
)

declare module 'fastify' {
  interface FastifyInstance {
    /** Aborted when the drain starts (app.close()): long-lived answers end then. */
    drainStarted?: AbortSignal
  }
}
