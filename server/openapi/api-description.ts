import { MFA_SETUP_ROUTES } from '../access/mfa-requirement'
import type { ApiGroup } from './api-groups'
import { protocolError } from '../http/protocol-errors'
import { apiMessages } from '../http/messages'

/** The parts of an OpenAPI 3.1 document this file reads and writes. */
export interface OpenApiDocument {
  openapi: string
  paths?: Record<string, Record<string, Operation>>
  components?: Record<string, unknown>
  [key: string]: unknown
}

export interface Operation {
  operationId?: string
  parameters?: { in: string; name: string }[]
  requestBody?: unknown
  security?: unknown[]
  tags?: string[]
  responses?: Record<string, { description: string; content?: Record<string, unknown> }>
  [key: string]: unknown
}

export const BEARER_SCHEME = {
  type: 'http',
  scheme: 'bearer',
  description: 'The token of POST /api/auth/login, as `Authorization: Bearer <token>`',
} as const

const METHODS_WITH_BODY = new Set(['post', 'put', 'patch', 'delete'])

const ERROR_BODY_REF = { $ref: '#/components/schemas/ErrorBody' }

/** A status's description in the document, with an example of the body it carries. */
function errorResponse(status: number, description: string) {
  return {
    description,
    content: { 'application/json': { schema: ERROR_BODY_REF, example: protocolError(status) } },
  }
}

/**
 * The answers any route can give, whatever its handler does: the ones the server's HTTP layer
 * makes (body parsing, the router, load shedding, the drain) and a failure. A route's own schema
 * wins where it says more about the same status.
 */
function answersOfTheHttpLayer(method: string, operation: Operation) {
  const takesInput = METHODS_WITH_BODY.has(method) || (operation.parameters ?? []).length > 0
  const hasPathParameters = (operation.parameters ?? []).some((param) => param.in === 'path')
  return {
    ...(takesInput
      ? { 400: errorResponse(400, 'The request is malformed or does not match its schema') }
      : {}),
    ...(operation.security && operation.security.length > 0
      ? {
          401: {
            ...errorResponse(401, 'No session, or one that has ended'),
            headers: { 'WWW-Authenticate': { schema: { type: 'string', const: 'Bearer' } } },
          },
        }
      : {}),
    ...(METHODS_WITH_BODY.has(method)
      ? { 413: errorResponse(413, 'The body is over the size limit (16 KB)') }
      : {}),
    ...(hasPathParameters ? { 414: errorResponse(414, 'A path parameter is too long') } : {}),
    500: errorResponse(
      500,
      'An unexpected failure (its cause is in the log, under the request id)',
    ),
    503: {
      ...errorResponse(503, 'Overloaded, or shutting down: try again after Retry-After seconds'),
      headers: { 'Retry-After': { schema: { type: 'integer', minimum: 1 } } },
    },
  }
}

const MFA_SETUP_REQUIRED =
  '`mfa_setup_required`: MFA_REQUIRED covers this account and it has no second factor yet; only GET /api/auth/me, logout, the session calls, GET /api/me/mfa and setting up TOTP or a passkey answer until it has one'

/**
 * The 403 every signed-in call but those of MFA_SETUP_ROUTES may give (access/mfa-requirement.ts),
 * merged with the route's own 403 (`forbidden` for admins' calls) when it has one.
 */
function withMfaSetupRefusal(method: string, path: string, operation: Operation): Operation {
  const signedIn = operation.security !== undefined && operation.security.length > 0
  if (!signedIn || MFA_SETUP_ROUTES.has(`${method.toUpperCase()} ${path}`)) return operation
  const own = operation.responses?.['403']
  const refusal = own
    ? { ...own, description: `${own.description}; or ${MFA_SETUP_REQUIRED}` }
    : {
        description: MFA_SETUP_REQUIRED,
        content: {
          'application/json': {
            schema: ERROR_BODY_REF,
            example: {
              error: { code: 'mfa_setup_required', message: apiMessages.mfa_setup_required },
            },
          },
        },
      }
  return { ...operation, responses: { ...operation.responses, 403: refusal } }
}

const operationId = (method: string, path: string) =>
  [
    method,
    ...path
      .replace(/^\/api\//, '')
      .split(/[^A-Za-z0-9]+/)
      .filter(Boolean),
  ]
    .map((part, index) => (index === 0 ? part : part[0]!.toUpperCase() + part.slice(1)))
    .join('')

/**
 * Completes the document @fastify/swagger makes from the routes' schemas: only the /api routes,
 * an operationId for each and the groups their tags name (what client generators name functions
 * and classes after),
 * `security: []` on the public ones (so a reader knows they are public, not forgotten), the
 * bearer scheme, and the error answers of the HTTP layer on every operation, in the standard
 * shape with examples.
 */
export function completeApiDescription(
  document: OpenApiDocument,
  groups: readonly ApiGroup[],
): OpenApiDocument {
  const paths: NonNullable<OpenApiDocument['paths']> = {}
  for (const [path, operations] of Object.entries(document.paths ?? {})) {
    if (!path.startsWith('/api/') || path === '/api/openapi.json') continue
    // A plugin's root route (`/` under /api/staff) is `/api/staff/` to Fastify, which answers
    // both spellings; clients call the one without the slash.
    paths[path.replace(/(.)\/+$/, '$1')] = Object.fromEntries(
      Object.entries(operations).map(([method, described]) => {
        const operation = withMfaSetupRefusal(method, path, described)
        return [
          method,
          {
            ...operation,
            operationId: operation.operationId ?? operationId(method, path),
            security: operation.security ?? [],
            responses: { ...answersOfTheHttpLayer(method, operation), ...operation.responses },
          },
        ]
      }),
    )
  }
  const components = document.components ?? {}
  return {
    ...document,
    // Relative: the document is served by the API it describes, wherever that is.
    servers: [{ url: '/', description: 'the panel serving this document' }],
    tags: groups.map(({ name, description }) => ({ name, description })),
    paths,
    components: {
      ...components,
      securitySchemes: {
        ...(components.securitySchemes as object | undefined),
        bearer: BEARER_SCHEME,
      },
      schemas: {
        ...(components.schemas as object | undefined),
        ErrorBody: {
          type: 'object',
          additionalProperties: false,
          required: ['error'],
          properties: {
            error: {
              type: 'object',
              additionalProperties: false,
              required: ['code', 'message'],
              properties: {
                code: { type: 'string', description: 'stable, for programs (e.g. invalid_input)' },
                message: { type: 'string', description: 'for people, in pt-BR' },
              },
            },
          },
          example: protocolError(400),
        },
      },
    },
  }
}
