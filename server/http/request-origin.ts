import type { FastifyRequest } from 'fastify'
import { isWellFormedToken } from '../accounts/tokens'
import { DEVICE_COOKIE } from '../accounts/trusted-devices'

/** Where a request came from, as the audit log keeps it. */
export interface RequestOrigin {
  ip: string | null
  userAgent: string | null
}

/**
 * Where a password check comes from (accounts/password-check.ts): the request's address and, on
 * the routes under /api/auth that see it, the browser's device token (trusted-devices.ts).
 */
export interface Origin {
  address: string
  deviceToken?: string
  /** The address and browser as the audit log keeps them. */
  audit?: RequestOrigin
}

/** A browser's own description can be anything; the log keeps a bounded, printable part. */
const USER_AGENT_MAX = 300

export function requestOrigin(request: FastifyRequest): RequestOrigin {
  const agent = request.headers['user-agent']
  return {
    ip: request.ip || null,
    userAgent: agent
      ? [...agent]
          .filter((c) => c >= ' ' && c !== '\u007f')
          .join('')
          .slice(0, USER_AGENT_MAX)
      : null,
  }
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
