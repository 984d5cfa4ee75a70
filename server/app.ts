import { resolve } from 'node:path'
import Fastify, { type FastifyInstance } from 'fastify'
import api from './api/built-in-api'
import apiProxy, { upstreamAnswers } from './api/api-proxy'
import type { Config } from './config/config'
import { openDatabase, type Database } from './db/database'
import type { DataDirLock } from './db/data-dir-lock'
import { openEmbeddedStore } from './db/embedded-store'
import errors from './http/errors'
import gracefulClose from './http/graceful-close'
import health from './health/health'
import loadShedding, { DEFAULT_LOAD_SHEDDING, type LoadSheddingOptions } from './http/load-shedding'
import { AccessLog, loggerOptions, type LoggerSettings } from './http/logger'
import { createMailer, type Mailer } from './mail/mailer'
import requestId, { requestIdGenerator } from './http/request-id'
import security from './http/security'
import staticFiles from './static/static-files'

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
  /** DATA_DIR, already claimed by main.ts (checked and locked); otherwise the app claims it. */
  dataDirLock?: DataDirLock
  /** Where mail goes instead of SMTP_URL or the log (tests). */
  mailer?: Mailer
  /** Load-shedding thresholds (tests make them tiny). */
  loadShedding?: LoadSheddingOptions
}

/** Bodies of the API are small JSON objects; anything bigger is refused before it is read. */
const BODY_LIMIT_BYTES = 16 * 1024
const READINESS_TIMEOUT_MS = 1000
/**
 * Slow clients cannot hold connections: the headers must arrive within 10 s and the whole
 * request within 30 s (slowloris); an idle keep-alive connection lives 72 s, longer than the
 * usual 60 s of load balancers, so they are the ones to close it.
 */
const HEADERS_TIMEOUT_MS = 10_000
const REQUEST_TIMEOUT_MS = 30_000
const KEEP_ALIVE_TIMEOUT_MS = 72_000

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
    genReqId: requestIdGenerator(options.trustProxy !== false),
    requestTimeout: REQUEST_TIMEOUT_MS,
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    bodyLimit: BODY_LIMIT_BYTES,
    // Bodies are checked as they are: no silent removal of unknown fields, no type coercion.
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, allErrors: false } },
    // While closing, requests that still arrive on open connections get 503 at once, and the
    // requests already in flight run to completion (see graceful-close.ts and main.ts).
    return503OnClosing: true,
    forceCloseConnections: 'idle',
  })

  // The store opens first: a first start (or an import of an earlier version's database) keeps
  // the event loop busy, and load shedding, which measures the loop from its registration on,
  // must not count that as load.
  const database = options.apiUpstream
    ? null
    : (options.database ?? (await openStore(app, options)))

  app.server.headersTimeout = HEADERS_TIMEOUT_MS
  await app.register(requestId)
  await app.register(gracefulClose)
  await app.register(loadShedding, options.loadShedding ?? DEFAULT_LOAD_SHEDDING)
  await app.register(errors)
  await app.register(security, { https: options.https })

  let isReady: () => Promise<boolean>
  if (database === null) {
    const upstream = options.apiUpstream ?? ''
    await app.register(apiProxy, { upstream })
    isReady = () => upstreamAnswers(upstream, READINESS_TIMEOUT_MS)
  } else {
    const mailer =
      options.mailer ??
      createMailer({ smtpUrl: options.smtpUrl, from: options.mailFrom, log: app.log })
    app.addHook('onClose', async () => mailer.close())
    await app.register(api, { config: options, database, mailer })
    isReady = () => database.canWrite(READINESS_TIMEOUT_MS)
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
  const database = options.databaseUrl
    ? await openDatabase({ postgresUrl: options.databaseUrl })
    : await openEmbeddedStore(resolve(options.dataDir), app.log, options.dataDirLock)
  app.log.info(
    database.engine === 'postgres'
      ? 'database: PostgreSQL (DATABASE_URL)'
      : `database: embedded SQLite in ${options.dataDir}`,
  )
  app.addHook('onClose', async () => database.close())
  return database
}
