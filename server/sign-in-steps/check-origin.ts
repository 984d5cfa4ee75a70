import type { FastifyRequest } from 'fastify'
import { isWellFormedToken } from '../accounts/tokens'
import { DEVICE_COOKIE } from '../accounts/trusted-devices'
import { requestOrigin, type RequestOrigin } from '../http/request-origin'

/**
 * Where a password check comes from (password-check.ts): the request's address and, on
 * the routes under /api/auth that see it, the browser's device token (accounts/trusted-devices.ts).
 */
export interface Origin {
  address: string
  deviceToken?: string
  /** The address and browser as the audit log keeps them. */
  audit?: RequestOrigin
}

/**
 * The origin of a password check. The device cookie is scoped to /api/auth: elsewhere (Minha
 * conta under /api/me) the check counts against the account from this address, like a new
 * browser. Needs @fastify/cookie in the plugin for the cookie to be read.
 */
export function checkOrigin(request: FastifyRequest): Origin {
  const deviceToken = request.cookies?.[DEVICE_COOKIE]
  return {
    address: request.ip,
    audit: requestOrigin(request),
    ...(deviceToken !== undefined && isWellFormedToken(deviceToken) ? { deviceToken } : {}),
  }
}
