import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { HttpError } from '../../http/errors'
import { scimPayload } from './json-in-pieces'
import { ScimError, scimErrorBody, type ScimType } from './scim-error'

/**
 * What /scim/v2 speaks over HTTP (RFC 7644 §3.1, §3.12): `application/scim+json` both ways
 * (plain JSON accepted), and every refusal in SCIM's error shape, never the rest of the API's
 * `{"error":…}`: a directory reads `status`, `scimType` and `detail` and shows the detail to the
 * administrator. A 5xx says nothing of its cause (the log has it, with the request id).
 */

export const SCIM_MEDIA_TYPE = 'application/scim+json'

/**
 * A SCIM body's limit: a Group PATCH adding a few hundred members, or a User with every Entra
 * attribute, is well over the API's 16 KiB. Each text in it is bounded again by the readers
 * (attribute-values.ts).
 */
export const SCIM_BODY_LIMIT_BYTES = 512 * 1024

export function sendScim(reply: FastifyReply, status: number, body: unknown) {
  return reply.code(status).type(`${SCIM_MEDIA_TYPE}; charset=utf-8`).send(scimPayload(body))
}

/** `https://painel.example/scim/v2`: PUBLIC_URL's, what meta.location and $ref are made of. */
export const scimBaseUrl = (publicUrl: string) => `${publicUrl.replace(/\/+$/, '')}/scim/v2`

/** Details for the refusals the HTTP layer makes before a route runs. */
const FRAMEWORK_REFUSALS: Record<string, [number, ScimType | undefined, string]> = {
  FST_ERR_CTP_BODY_TOO_LARGE: [413, undefined, 'The request body is too large.'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [
    415,
    undefined,
    `The body must be ${SCIM_MEDIA_TYPE} or application/json.`,
  ],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'invalidSyntax', 'The request body is empty.'],
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'invalidSyntax', 'The request body is not valid JSON.'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'invalidSyntax', 'The Content-Length is wrong.'],
}

/** The API's own refusals (a guard's, the storable-text check's) said in SCIM's words. */
function fromHttpError(error: HttpError): ScimError {
  if (error.statusCode === 401)
    return new ScimError(
      401,
      undefined,
      'A valid provisioning token is needed (Authorization: Bearer …).',
    )
  if (error.code === 'last_admin')
    return new ScimError(
      409,
      undefined,
      'This change would leave Painel without an active administrator.',
    )
  if (error.statusCode === 404) return new ScimError(404, undefined, 'Resource not found.')
  if (error.statusCode === 400)
    return new ScimError(
      400,
      'invalidValue',
      'The request holds text Painel does not store (control characters or unpaired surrogates).',
    )
  return new ScimError(error.statusCode, undefined, error.message)
}

export function scimHttp(app: FastifyInstance) {
  // The SCIM media type is JSON (RFC 7644 §3.1); application/json keeps Fastify's own parser.
  app.addContentTypeParser(
    SCIM_MEDIA_TYPE,
    { parseAs: 'string', bodyLimit: SCIM_BODY_LIMIT_BYTES },
    app.getDefaultJsonParser('error', 'error'),
  )

  app.setNotFoundHandler(async (_request, reply) =>
    sendScim(reply, 404, scimErrorBody(404, 'No such SCIM endpoint.')),
  )

  app.setErrorHandler(async (caught: FastifyError | Error, request: FastifyRequest, reply) => {
    let error: ScimError
    if (caught instanceof ScimError) error = caught
    else if (caught instanceof HttpError) {
      error = fromHttpError(caught)
      reply.headers(caught.headers)
    } else {
      const code = (caught as FastifyError).code
      const known = code ? FRAMEWORK_REFUSALS[code] : undefined
      const status = (caught as FastifyError).statusCode
      if (known) error = new ScimError(...known)
      else if ('validation' in caught && caught.validation)
        error = new ScimError(400, 'invalidSyntax', 'The request does not have the expected form.')
      else if (status !== undefined && status >= 400 && status < 500)
        error = new ScimError(status, undefined, 'The request was refused.')
      else {
        request.log.error({ err: caught }, 'SCIM request failed')
        error = new ScimError(500, undefined, 'The request failed on the server.')
      }
    }
    if (error.status === 401) reply.header('www-authenticate', 'Bearer realm="scim"')
    return sendScim(reply, error.status, error.body())
  })
}
