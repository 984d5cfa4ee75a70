import type { FastifyError } from 'fastify'
import fp from 'fastify-plugin'

/** The one error shape every response of this server uses: `{"error":{"code","message"}}`. */
export interface ErrorBody {
  error: { code: string; message: string }
}

export function errorBody(code: string, message: string): ErrorBody {
  return { error: { code, message } }
}

const MESSAGES = {
  not_found: 'Recurso não encontrado.',
  invalid_input: 'Requisição inválida.',
  forbidden: 'Acesso negado.',
  payload_too_large: 'Requisição grande demais.',
  unsupported_media_type: 'Tipo de conteúdo não suportado.',
  too_many_requests: 'Muitas requisições. Tente novamente em instantes.',
  service_unavailable: 'Serviço indisponível no momento. Tente novamente em instantes.',
  internal_error: 'Erro interno do servidor.',
} as const

export type ErrorCode = keyof typeof MESSAGES

/** The code for a status the app did not set a code of its own for. */
function codeForStatus(status: number): ErrorCode {
  if (status === 400) return 'invalid_input'
  if (status === 403) return 'forbidden'
  if (status === 404) return 'not_found'
  if (status === 413) return 'payload_too_large'
  if (status === 415) return 'unsupported_media_type'
  if (status === 429) return 'too_many_requests'
  if (status === 503) return 'service_unavailable'
  return status < 500 ? 'invalid_input' : 'internal_error'
}

/** An error a route throws on purpose: its status, code and pt-BR message reach the client as-is. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
  ) {
    super(message)
    this.name = 'HttpError'
  }
}

/**
 * Turns every failure into the standard shape. A 5xx never shows its cause (no message, no
 * stack): the cause goes to the log with the request id, where ops can find it.
 */
export default fp(
  async (app) => {
    app.setNotFoundHandler(async (_request, reply) =>
      reply.code(404).send(errorBody('not_found', MESSAGES.not_found)),
    )

    app.setErrorHandler(async (error: FastifyError | HttpError, request, reply) => {
      if (error instanceof HttpError) {
        return reply.code(error.statusCode).send(errorBody(error.code, error.message))
      }
      const status =
        typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 600
          ? error.statusCode
          : 500
      if (status >= 500) request.log.error({ err: error }, 'request failed')
      else
        request.log.info({ err: { code: error.code, message: error.message } }, 'request refused')
      const code = codeForStatus(status)
      return reply.code(status).send(errorBody(code, MESSAGES[code]))
    })
  },
  { name: 'errors' },
)
