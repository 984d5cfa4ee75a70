import Fastify, { type FastifyInstance } from 'fastify'
import api from './api'
import apiProxy, { upstreamAnswers } from './api-proxy'
import type { Config } from './config'
import { openDatabase, type Database } from './db/database'
import errors from './errors'
import gracefulClose from './graceful-close'
import health from './health'
import { AccessLog, loggerOptions, type LoggerSettings } from './logger'
import { createMailer, type Mailer } from './mail/mailer'
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
  /** An open database to use instead of opening one from the config (tests); not closed by the app. */
  database?: Database
  /** Where mail goes instead of SMTP_URL or the log (tests). */
  mailer?: Mailer
}

/** Bodies of the API are small JSON objects; anything bigger is refused before it is read. */
const BODY_LIMIT_BYTES = 16 * 1024
const READINESS_TIMEOUT_MS = 1000

/** The whole server as a Fastify plugin tree, ready for `inject()` or `listen()`. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: loggerOptions({
      level: options.logLevel,
      pretty: options.prettyLogs ?? false,
      ...(options.logStream ? { stream: options.logStream } : {}),
    }),
    logController: new AccessLog(),
    trustProxy: trustProxySetting(options.trustProxy),
    bodyLimit: BODY_LIMIT_BYTES,
    // Bodies are checked as they are: no silent removal of unknown fields, no type coercion.
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, allErrors: false } },
    // While closing, requests that still arrive on open connections get 503 at once, and the
    // requests already in flight run to completion (see graceful-close.ts and main.ts).
    return503OnClosing: true,
    forceCloseConnections: 'idle',
  })

  await app.register(gracefulClose)
  await app.register(errors)
  await app.register(security, { https: options.https })

  let isReady: () => Promise<boolean>
  if (options.apiUpstream) {
    const upstream = options.apiUpstream
    await app.register(apiProxy, { upstream })
    isReady = () => upstreamAnswers(upstream, READINESS_TIMEOUT_MS)
  } else {
    const database = options.database ?? (await openStore(app, options))
    const mailer =
      options.mailer ??
      createMailer({ smtpUrl: options.smtpUrl, from: options.mailFrom, log: app.log })
    app.addHook('onClose', async () => mailer.close())
    await app.register(api, { config: options, database, mailer })
    isReady = () => database.ping(READINESS_TIMEOUT_MS)
  }

  await app.register(health, { isReady })
  await app.register(staticFiles, {
    distDir: options.distDir,
    filesChange: options.devMode ?? false,
  })
  return app
}

/** A number of hops is given to Fastify as the function its types ask for: trust the first n. */
function trustProxySetting(setting: Config['trustProxy']) {
  return typeof setting === 'number' ? (_address: string, hop: number) => hop < setting : setting
}

async function openStore(app: FastifyInstance, options: AppOptions): Promise<Database> {
  const database = await openDatabase({
    databaseUrl: options.databaseUrl,
    dataDir: options.dataDir,
  })
  app.log.info(
    database.kind === 'postgres'
      ? 'database: PostgreSQL (DATABASE_URL)'
      : `database: embedded PostgreSQL in ${options.dataDir}`,
  )
  app.addHook('onClose', async () => database.close())
  return database
}
