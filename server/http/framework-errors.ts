import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { protocolError } from './protocol-errors'

/** Fastify's router refusals: a URL it cannot decode, a path parameter over its length limit. */
export function frameworkErrorStatus(code: string): number {
  return code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : code === 'FST_ERR_ASYNC_CONSTRAINT' ? 500 : 400
}

/**
 * Fastify's `frameworkErrors` option: the router refuses these before any hook runs, so the
 * request id and the security headers that hooks add to every other answer are set here.
 */
export function frameworkErrorHandler(securityHeaders: Readonly<Record<string, string>>) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    const status = frameworkErrorStatus(error.code)
    if (status >= 500) request.log.error({ err: error }, 'request failed')
    else request.log.info({ err: { code: error.code } }, 'request refused')
    void reply
      .code(status)
      .headers(securityHeaders)
      .header('x-request-id', request.id)
      .header('cache-control', 'no-store')
      .send(protocolError(status))
  }
}
