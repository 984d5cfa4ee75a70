import { apiMessages } from './messages'

/**
 * The refusals made at the HTTP level, before any route runs (by Node's parser, its timeouts,
 * Fastify's router and body parser, or the drain), with their pt-BR texts from messages.ts. Codes for any route are in
 * errors.ts; these are the ones only the protocol produces.
 */
const PROTOCOL_ERRORS: Record<number, [code: string, message: string]> = {
  400: ['invalid_input', apiMessages.invalid_input],
  404: ['not_found', apiMessages.not_found],
  405: ['method_not_allowed', apiMessages.method_not_allowed],
  408: ['request_timeout', apiMessages.request_timeout],
  413: ['payload_too_large', apiMessages.body_too_large],
  414: ['uri_too_long', apiMessages.uri_too_long],
  431: ['headers_too_large', apiMessages.headers_too_large],
  500: ['internal_error', apiMessages.internal_error],
  503: ['service_unavailable', apiMessages.service_unavailable],
}

/** The standard body (errors.ts's shape; errors.ts imports this file, not the other way). */
export function protocolError(status: number): { error: { code: string; message: string } } {
  const [code, message] = PROTOCOL_ERRORS[status] ?? PROTOCOL_ERRORS[status < 500 ? 400 : 500]!
  return { error: { code, message } }
}
