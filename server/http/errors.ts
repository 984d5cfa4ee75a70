import type { FastifyError, FastifySchemaValidationError } from 'fastify'
import fp from 'fastify-plugin'
import type { ErrorBody } from '../../common/api/errors'
import { apiMessages, tooManyAttemptsMessage, validationMessages } from './messages'
import { protocolError } from './protocol-errors'
import { NOT_FOUND_PAGE, wantsNotFoundPage } from './not-found-page'
import type { RefusalReason } from './refusals'

/** The one error shape every response of this server uses: `{"error":{"code","message"}}`. */
export type { ErrorBody }

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
    /** A refusal under load or at a limit: the reason it is counted under (http/refusals.ts). */
    readonly refusal?: RefusalReason,
  ) {
    super(message)
    this.name = 'HttpError'
  }
}

/** The usual case: the code names its message in the table (server/http/messages.ts). */
export const apiError = (statusCode: number, code: keyof typeof apiMessages, as: string = code) =>
  new HttpError(statusCode, as, apiMessages[code])

/** 429 with Retry-After: the sign-in limits' refusal, wherever a password or a code is checked. */
export function tooManyAttempts(seconds: number): HttpError {
  return new HttpError(429, 'too_many_attempts', tooManyAttemptsMessage(seconds), {
    'retry-after': String(seconds),
  })
}

/** Fastify's own refusals of a request body: all of them are the client's bad input. */
const BODY_PROBLEMS: Record<string, string> = {
  FST_ERR_CTP_BODY_TOO_LARGE: apiMessages.body_too_large,
  FST_ERR_CTP_INVALID_MEDIA_TYPE: apiMessages.wrong_media_type,
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: apiMessages.bad_content_length,
  FST_ERR_CTP_EMPTY_JSON_BODY: apiMessages.empty_body,
  FST_ERR_CTP_INVALID_JSON_BODY: apiMessages.invalid_json,
}

/** A name from the request, safe to quote back: short, and nothing but plain characters. */
const quoteName = (name: unknown) =>
  `"${String(name)
    .replace(/[^\w.-]/g, '?')
    .slice(0, 40)}"`

/** What is wrong with a body, in pt-BR, from the first schema error. */
export function describeValidation(errors: readonly FastifySchemaValidationError[]): string {
  const [first] = errors
  if (!first) return validationMessages.generic
  const field = first.instancePath.replace(/^\//, '').replace(/\//g, '.')
  const params: Record<string, unknown> = first.params
  switch (first.keyword) {
    case 'required':
      return validationMessages.missingField(quoteName(params.missingProperty))
    case 'additionalProperties':
      return validationMessages.unknownField(quoteName(params.additionalProperty))
    case 'type':
      return field
        ? validationMessages.wrongType(quoteName(field), String(params.type))
        : validationMessages.notAnObject
    case 'minLength':
    case 'maxLength':
      return validationMessages.wrongLength(quoteName(field))
    default:
      return field ? validationMessages.notAccepted(quoteName(field)) : validationMessages.generic
  }
}

function codeForStatus(
  status: number,
):
  | 'forbidden'
  | 'not_found'
  | 'too_many_requests'
  | 'bad_gateway'
  | 'service_unavailable'
  | 'invalid_input'
  | 'internal_error' {
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
    app.setNotFoundHandler(async (request, reply) =>
      wantsNotFoundPage(request)
        ? reply.code(404).type('text/html; charset=utf-8').send(NOT_FOUND_PAGE)
        : reply.code(404).send(errorBody('not_found', apiMessages.not_found)),
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
      if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
        // 413, not 400: the client can tell "too big" from "malformed". The rest of the body
        // is not read, so the connection cannot carry another request.
        return reply.code(413).header('connection', 'close').send(protocolError(413))
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
      // A refusal that may pass on its own soon (db/storage-failure.ts: a lock let go) says when.
      const retryAfter = (error as { retryAfterSeconds?: unknown }).retryAfterSeconds
      if (typeof retryAfter === 'number') reply.header('retry-after', String(retryAfter))
      return reply.code(status).send(errorBody(code, apiMessages[code]))
    })
  },
  { name: 'errors' },
)
