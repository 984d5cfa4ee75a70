import { STATUS_CODES } from 'node:http'
import { protocolError } from './protocol-errors'

/**
 * A complete HTTP/1.1 error answer as bytes, for the places where Node has no response object
 * (a request it could not parse, or one that timed out): the standard body, the security headers
 * and the request id, and `Connection: close` since the connection cannot be trusted any further.
 */
export function rawErrorResponse(
  status: number,
  requestId: string,
  securityHeaders: Readonly<Record<string, string>>,
): string {
  const body = JSON.stringify(protocolError(status))
  const headers: Record<string, string> = {
    ...securityHeaders,
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    'cache-control': 'no-store',
    'x-request-id': requestId,
    connection: 'close',
  }
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`)
  return `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n${lines.join('\r\n')}\r\n\r\n${body}`
}
