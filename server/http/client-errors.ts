import { randomUUID } from 'node:crypto'
import type { Socket } from 'node:net'
import type { FastifyBaseLogger } from 'fastify'
import { rawErrorResponse } from './raw-error-response'
import type { Refusals } from './refusals'

/** The status Node's own answer would have had, for each parser or timeout error. */
export function clientErrorStatus(code: string | undefined): number {
  switch (code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return 408
    case 'HPE_HEADER_OVERFLOW':
      return 431
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return 413
    default:
      return 400
  }
}

/** How long a refused client may keep sending before its connection is cut. */
const LINGER_MS = 1000

export interface ClientErrorOptions {
  /** How long a connection that has sent nothing yet may stay open (the keep-alive limit). */
  idleMs: number
  /** Where a 408 is counted (http/refusals.ts). */
  refusals?: Refusals
}

/**
 * The server's `clientError` handler: what Node could not turn into a request (a malformed
 * request line such as a lower-case method, headers too large, a request that took too long)
 * is answered in the standard shape with the security headers and a request id that is also on
 * the log line, instead of Node's bare `400 Bad Request`.
 *
 * Node's headers clock starts when it accepts a connection, not when a request's first byte
 * arrives (node_http_parser.cc: Parser::Initialize sets the message start to the accept time).
 * Under load the two can be seconds apart: the server accepts a connection and reads it only
 * when its event loop gets round to it, or a client starved of CPU writes its request well after
 * connecting. Node then called a request "too slow" that had not been read at all, and the
 * 408 went to a request that arrived whole (issue 44: 4-8% of the answers under 200
 * connections). A connection that has delivered no byte has sent no slow request: it is an
 * unused connection, kept like an idle keep-alive one (closed after `idleMs` of silence),
 * and its request, when it is read, is timed from its own first byte. A 408 is for a request
 * that has begun and not ended in time: a slow client.
 */
export function clientErrorHandler(
  securityHeaders: Readonly<Record<string, string>>,
  options: ClientErrorOptions,
) {
  // Fastify calls it bound to the app: `this.log` is the server's logger.
  return function (
    this: { log: FastifyBaseLogger },
    error: Error & { code?: string },
    socket: Socket,
  ): void {
    // A reset connection, or one already gone: nobody is left to answer.
    if (error.code === 'ECONNRESET' || socket.destroyed) return
    if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT' && socket.bytesRead === 0) {
      // Node has stopped watching this connection; the socket's own idle timer takes over, and
      // a request that arrives starts Node's clock again from its first byte.
      socket.setTimeout(options.idleMs)
      return
    }
    const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage
    // Half an answer already on the wire: more bytes would corrupt it, so only close.
    if (!socket.writable || inFlight?.headersSent) {
      socket.destroy()
      return
    }
    const status = clientErrorStatus(error.code)
    const requestId = randomUUID()
    const details = {
      reqId: requestId,
      err: { code: error.code, message: error.message },
      bytesRead: socket.bytesRead,
    }
    if (status === 408) {
      this.log.info(details, 'request timeout: the client was too slow to send its request')
      options.refusals?.count('request_timeout', details)
    } else {
      this.log.info(details, 'client error')
    }
    // end(), then a bounded wait: closing at once while the client still sends (headers too
    // large) would reset the connection and lose the answer it is about to read.
    socket.end(rawErrorResponse(status, requestId, securityHeaders))
    socket.setTimeout(LINGER_MS, () => socket.destroy())
    socket.resume()
  }
}
