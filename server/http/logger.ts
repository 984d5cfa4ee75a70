import { createRequire } from 'node:module'
import {
  LogController,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify'
import type { LogLevel } from '../config/config'
import { loggableAddress, loggableUrl } from './loggable-request'

/**
 * Headers never written to a log line, at any level: those that carry credentials, and those
 * that describe the person rather than the request (their browser, their full address as a
 * proxy forwards it; docs/personal-data.md, "The server's log").
 */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["proxy-authorization"]',
  'req.headers["x-api-key"]',
  'req.headers["user-agent"]',
  'req.headers["x-forwarded-for"]',
  'req.headers.forwarded',
  'req.headers["x-real-ip"]',
  'res.headers["set-cookie"]',
]

export interface LoggerSettings {
  level: LogLevel
  /** Human-readable lines for a person at a terminal; JSON otherwise (containers, CI, log shippers). */
  pretty: boolean
  /** Where JSON lines go; tests pass a stream they can read. Defaults to stdout. */
  stream?: { write(line: string): void }
}

/**
 * Human-readable lines for a terminal (`npm start` or `npm run dev` at a terminal; never in a
 * container, whose stdout is no TTY): pino-pretty as a stream on this thread, required only then.
 * Not pino's transport, a worker thread that finds its script through pino's own folder: pino
 * is bundled into the server (scripts/build/esbuild-options.ts), which a start spent loading.
 */
function prettyStream(): { write(line: string): void } {
  const pretty = createRequire(import.meta.url)('pino-pretty') as (
    options: Record<string, unknown>,
  ) => { write(line: string): void }
  return pretty({ translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname' })
}

export function loggerOptions(settings: LoggerSettings): FastifyServerOptions['logger'] {
  return {
    level: settings.level,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: {
      // The full header set is only logged at debug level (see AccessLog); the redaction above
      // is what keeps credentials out of it.
      req: (request: FastifyRequest) => ({
        method: request.method,
        url: loggableUrl(request),
        remoteAddress: loggableAddress(request.ip),
        headers: request.headers,
      }),
    },
    ...(settings.stream
      ? { stream: settings.stream }
      : settings.pretty
        ? { stream: prettyStream() }
        : {}),
  }
}

/**
 * One line per request, like a web server's access log, instead of Fastify's two
 * ("incoming request" + "request completed"). The full request, headers included, is logged on
 * arrival only at debug level.
 */
const LEVELS_WITH_INFO = new Set(['info', 'debug', 'trace'])

export class AccessLog extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    if (this.isLogDisabled(request)) return
    request.log.debug({ req: request }, 'incoming request')
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (this.isLogDisabled(request)) return
    // At LOG_LEVEL=warn a served file writes nothing: do not build the line (request.ip is not free).
    if (!error && !LEVELS_WITH_INFO.has(reply.log.level)) return
    // No query values, no full address, no browser: loggable-request.ts says why.
    const line = {
      method: request.method,
      url: loggableUrl(request),
      statusCode: reply.statusCode,
      responseTime: Math.round(reply.elapsedTime * 10) / 10,
      remoteAddress: loggableAddress(request.ip),
    }
    if (error) reply.log.error({ ...line, err: error }, 'request errored')
    else reply.log.info(line, 'request completed')
  }
}
