import type { FastifyError, FastifySchemaValidationError } from 'fastify'
import fp from 'fastify-plugin'

/** The one error shape every response of this server uses: `{"error":{"code","message"}}`. */
export interface ErrorBody {
  error: { code: string; message: string }
}

export function errorBody(code: string, message: string): ErrorBody {
  return { error: { code, message } }
}

/** An error a route throws on purpose: its status, code and pt-BR message reach the client as-is. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    /** Headers the answer carries, e.g. Retry-After. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message)
    this.name = 'HttpError'
  }
}

const MESSAGES = {
  not_found: 'Recurso não encontrado.',
  invalid_input: 'Requisição inválida.',
  forbidden: 'Acesso negado.',
  too_many_requests: 'Muitas requisições. Tente novamente em instantes.',
  service_unavailable: 'Serviço indisponível no momento. Tente novamente em instantes.',
  bad_gateway: 'O serviço de dados não respondeu. Tente novamente em instantes.',
  internal_error: 'Erro interno do servidor.',
} as const

/** Fastify's own refusals of a request body: all of them are the client's bad input. */
const BODY_PROBLEMS: Record<string, string> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'Dados grandes demais.',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Envie os dados como JSON (Content-Type: application/json).',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'Tamanho da requisição inválido.',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'Dados ausentes: envie um objeto JSON.',
  FST_ERR_CTP_INVALID_JSON_BODY: 'JSON inválido.',
}

/** A name from the request, safe to quote back: short, and nothing but plain characters. */
const quoteName = (name: unknown) =>
  `"${String(name)
    .replace(/[^\w.-]/g, '?')
    .slice(0, 40)}"`

/** What is wrong with a body, in pt-BR, from the first schema error. */
export function describeValidation(errors: readonly FastifySchemaValidationError[]): string {
  const [first] = errors
  if (!first) return 'Dados inválidos.'
  const field = first.instancePath.replace(/^\//, '').replace(/\//g, '.')
  const params: Record<string, unknown> = first.params
  switch (first.keyword) {
    case 'required':
      return `Dados inválidos: falta o campo ${quoteName(params.missingProperty)}.`
    case 'additionalProperties':
      return `Dados inválidos: campo desconhecido ${quoteName(params.additionalProperty)}.`
    case 'type':
      return field
        ? `Dados inválidos: o campo ${quoteName(field)} deve ser do tipo ${String(params.type)}.`
        : 'Dados inválidos: envie um objeto JSON.'
    case 'minLength':
    case 'maxLength':
      return `Dados inválidos: o campo ${quoteName(field)} tem tamanho fora do permitido.`
    default:
      return field
        ? `Dados inválidos: o campo ${quoteName(field)} não é aceito.`
        : 'Dados inválidos.'
  }
}

function codeForStatus(status: number): keyof typeof MESSAGES {
  if (status === 403) return 'forbidden'
  if (status === 404) return 'not_found'
  if (status === 429) return 'too_many_requests'
  if (status === 502 || status === 504) return 'bad_gateway'
  if (status === 503) return 'service_unavailable'
  return status < 500 ? 'invalid_input' : 'internal_error'
}

/**
 * Turns every failure into the standard shape. A bad body (schema, JSON, size, media type) is
 * a 400 `invalid_input`. A 5xx never shows its cause (no message, no stack): the cause goes to
 * the log with the request id, where ops can find it.
 */
export default fp(
  async (app) => {
    app.setNotFoundHandler(async (_request, reply) =>
      reply.code(404).send(errorBody('not_found', MESSAGES.not_found)),
    )

    app.setErrorHandler(async (error: FastifyError | HttpError, request, reply) => {
      if (error instanceof HttpError) {
        return reply
          .code(error.statusCode)
          .headers(error.headers)
          .send(errorBody(error.code, error.message))
      }
      if ('validation' in error && error.validation) {
        return reply
          .code(400)
          .send(errorBody('invalid_input', describeValidation(error.validation)))
      }
      const bodyProblem = BODY_PROBLEMS[error.code]
      if (bodyProblem || error instanceof SyntaxError) {
        return reply
          .code(400)
          .send(
            errorBody(
              'invalid_input',
              bodyProblem ?? BODY_PROBLEMS.FST_ERR_CTP_INVALID_JSON_BODY ?? '',
            ),
          )
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
