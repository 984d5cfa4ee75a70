import { randomUUID } from 'node:crypto'
import type { Socket } from 'node:net'
import type { FastifyBaseLogger } from 'fastify'
import { rawErrorResponse } from './raw-error-response'

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

/**
 * The server's `clientError` handler: what Node could not turn into a request (a malformed
 * request line such as a lower-case method, headers too large, a request that took too long)
 * is answered in the standard shape with the security headers and a request id that is also on
 * the log line, instead of Node's bare `400 Bad Request`.
 */
export function clientErrorHandler(securityHeaders: Readonly<Record<string, string>>) {
  // Fastify calls it bound to the app: `this.log` is the server's logger.
  return function (
    this: { log: FastifyBaseLogger },
    error: Error & { code?: string },
    socket: Socket,
  ): void {
    // A reset connection, or one already gone: nobody is left to answer.
    if (error.code === 'ECONNRESET' || socket.destroyed) return
    const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage
    // Half an answer already on the wire: more bytes would corrupt it, so only close.
    if (!socket.writable || inFlight?.headersSent) {
      socket.destroy()
      return
    }
    const status = clientErrorStatus(error.code)
    const requestId = randomUUID()
    this.log.info(
      { reqId: requestId, err: { code: error.code, message: error.message } },
      'client error',
    )
    // end(), then a bounded wait: closing at once while the client still sends (headers too
    // large) would reset the connection and lose the answer it is about to read.
    socket.end(rawErrorResponse(status, requestId, securityHeaders))
    socket.setTimeout(LINGER_MS, () => socket.destroy())
    socket.resume()
  }
}
