import type { FastifyRequest } from 'fastify'

/** Where a request came from, as the audit log keeps it. */
export interface RequestOrigin {
  ip: string | null
  userAgent: string | null
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
