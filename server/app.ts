import Fastify, { type FastifyInstance } from 'fastify'
import type { Config } from './config'
import errors from './errors'
import gracefulClose from './graceful-close'
import health from './health'
import { AccessLog, loggerOptions, type LoggerSettings } from './logger'
import security from './security'
import staticFiles from './static-files'

export interface AppOptions extends Config {
  /** The client build to serve (dist/). */
  distDir: string
  /** Pretty logs for a terminal; JSON otherwise. */
  prettyLogs?: boolean
  /** `npm run dev`: the client is rebuilt while the server runs. */
  devMode?: boolean
  /** Where log lines go instead of stdout (tests read them). */
  logStream?: LoggerSettings['stream']
}

/** The whole server as a Fastify plugin tree, ready for `inject()` or `listen()`. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: loggerOptions({
      level: options.logLevel,
      pretty: options.prettyLogs ?? false,
      ...(options.logStream ? { stream: options.logStream } : {}),
    }),
    logController: new AccessLog(),
    // While closing, requests that still arrive on open connections get 503 at once, and the
    // requests already in flight run to completion (see main.ts).
    return503OnClosing: true,
    forceCloseConnections: 'idle',
  })

  await app.register(gracefulClose)
  await app.register(errors)
  await app.register(security, { https: options.https })
  await app.register(health)
  await app.register(staticFiles, {
    distDir: options.distDir,
    filesChange: options.devMode ?? false,
  })

  return app
}
