import { join, resolve } from 'node:path'
import Fastify, { type FastifyInstance } from 'fastify'
import api from './built-in-api'
import type { Config } from './config/config'
import { openDatabase, type Database } from './db/database'
import type { DataDirLock } from './db/data-dir-lock'
import { openEmbeddedStore } from './db/embedded-store'
import { NEW_DATABASE_FILE } from './db/new-database'
import { clientErrorHandler } from './http/client-errors'
import type { BegunHash } from './accounts/first-admin'
import type { SessionWatchOptions } from './accounts/session-watch'
import drain, { DEFAULT_DRAIN, type DrainOptions } from './http/drain'
import errors from './http/errors'
import { frameworkErrorHandler } from './http/framework-errors'
import { AJV_OPTIONS, lazySchemaController } from './http/lazy-schema-compilers'
import { DEFAULT_TIMEOUTS, serverFactory, type ServerTimeouts } from './http/node-server'
import health from './health/health'
import loadShedding, { DEFAULT_LOAD_SHEDDING, type LoadSheddingOptions } from './http/load-shedding'
import heapSettle, { DEFAULT_HEAP_SETTLE, type HeapSettleOptions } from './http/heap-settle'
import { AccessLog, loggerOptions, type LoggerSettings } from './http/logger'
import { createMailer, type Mailer } from './mail/mailer'
import { MailOutbox, type OutboxTiming } from './mail/outbox'
import httpMetrics from './metrics/http-metrics'
import { instrumentedMailer } from './metrics/instrumented-mailer'
import metricsListener from './metrics/metrics-listener'
import type { PanelMetrics } from './metrics/panel-metrics'
import { queryTimer } from './metrics/query-timer'
import openapi from './openapi/openapi'
import refusalCounts, { Refusals } from './http/refusals'
import type { AdmissionOptions } from './http/admission'
import requestId, { requestIdGenerator } from './http/request-id'
import security, { securityHeaders } from './http/security'
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
  /** ADMIN_PASSWORD's hash, begun by main.ts on a DATA_DIR with no database (first-admin.ts). */
  adminPasswordHash?: BegunHash | undefined
  /** Where mail goes instead of SMTP_URL or the log (tests). */
  mailer?: Mailer
  /** The outbox sender's timing (tests). */
  mailTiming?: Partial<OutboxTiming>
  /** Load-shedding thresholds (tests make them tiny). */
  loadShedding?: LoadSheddingOptions
  heapSettle?: HeapSettleOptions
  /** Slow-client limits (tests make them short). */
  timeouts?: ServerTimeouts
  /** Shutdown limits (tests make them short). */
  drain?: DrainOptions
  /** The clock of sessions and second factors (tests move it). */
  clock?: () => Date
  /** The API's admission queue (tests make it small, and move its clock). */
  admission?: Partial<AdmissionOptions> & { now?: () => number }
  /** How the session streams are watched (tests shorten it). */
  sessionWatch?: Partial<SessionWatchOptions>
  /** How long after the start housekeeping first runs (FIRST_HOUSEKEEPING_MS; tests shorten it). */
  housekeepingDelayMs?: number
}

/** Bodies of the API are small JSON objects; anything bigger is refused before it is read. */
const BODY_LIMIT_BYTES = 16 * 1024
const READINESS_TIMEOUT_MS = 1000
/** The API description's version: the package's. */
const API_VERSION = '0.1.0'

/** The whole server as a Fastify plugin tree, ready for `inject()` or `listen()`. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  // Answers that no hook sees (Node's and the router's refusals) carry these themselves.
  const headers = securityHeaders(options.https)
  const timeouts = options.timeouts ?? DEFAULT_TIMEOUTS
  // Every refusal (a 408 Node's timers make, the 503s of the parts below) counted and logged once.
  const refusals = new Refusals(() => app.log)
  const app: FastifyInstance = Fastify({
    logger: loggerOptions({
      level: options.logLevel,
      pretty: options.prettyLogs ?? false,
      ...(options.logStream ? { stream: options.logStream } : {}),
    }),
    logController: new AccessLog(),
    trustProxy: trustProxySetting(options.trustProxy),
    genReqId: requestIdGenerator(options.trustProxy !== false),
    serverFactory: serverFactory(timeouts),
    bodyLimit: BODY_LIMIT_BYTES,
    ajv: { customOptions: AJV_OPTIONS },
    // Each route's schemas compiled on first use, not all of them at start (lazy-schema-compilers.ts).
    schemaController: lazySchemaController(),
    // The drain (http/drain.ts) answers and closes connections itself: Fastify's own 503 has
    // neither the standard shape nor the security headers, and its idle close resets requests.
    return503OnClosing: false,
    forceCloseConnections: false,
    frameworkErrors: frameworkErrorHandler(headers),
    clientErrorHandler: clientErrorHandler(headers, { idleMs: timeouts.keepAliveMs, refusals }),
  })

  // The store opens first: a first start (or an import of an earlier version's database) keeps
  // the event loop busy, and load shedding, which measures the loop from its registration on,
  // must not count that as load.
  const database = options.apiUpstream
    ? null
    : (options.database ?? (await openStore(app, options)))

  // onRequest hooks run in this order: the id and the security headers first, so that the
  // drain's and load shedding's quick 503s carry them too.
  await app.register(requestId)
  await app.register(security, { https: options.https })
  await app.register(refusalCounts, { refusals })
  await app.register(drain, options.drain ?? DEFAULT_DRAIN)
  await app.register(loadShedding, options.loadShedding ?? DEFAULT_LOAD_SHEDDING)
  await app.register(errors)
  await app.register(heapSettle, options.heapSettle ?? DEFAULT_HEAP_SETTLE)

  // Metrics only when asked for (METRICS_PORT): otherwise no request pays for them, and the
  // start does not load prom-client (a chunk of its own).
  const metrics: PanelMetrics | null =
    options.metricsPort === null
      ? null
      : new (await import('./metrics/panel-metrics')).PanelMetrics()
  if (metrics) {
    refusals.onRefusal((reason) => metrics.refusals.labels(reason).inc())
    await app.register(httpMetrics, { metrics })
    await app.register(metricsListener, {
      metrics,
      port: options.metricsPort ?? 0,
      host: options.host,
    })
  }

  let isReady: () => Promise<boolean>
  if (database === null) {
    const upstream = options.apiUpstream ?? ''
    // A chunk of its own: the built-in API's servers never load the proxy.
    const { default: apiProxy, upstreamAnswers } = await import('./api/api-proxy')
    await app.register(apiProxy, { upstream })
    isReady = () => upstreamAnswers(upstream, READINESS_TIMEOUT_MS)
  } else {
    const plainMailer =
      options.mailer ??
      createMailer({ smtpUrl: options.smtpUrl, from: options.mailFrom, log: app.log })
    const mailer = metrics ? instrumentedMailer(plainMailer, metrics) : plainMailer
    app.addHook('onClose', async () => mailer.close())
    const timed = metrics
      ? { ...database, db: database.db.withPlugin(queryTimer(metrics)) }
      : database
    const outbox = new MailOutbox({
      db: timed.db,
      engine: database.engine,
      mailer,
      log: app.log,
      ...(options.clock ? { now: options.clock } : {}),
      retry: {
        firstDelayMs: options.mailRetryDelaySeconds * 1000,
        maxDelayMs: 30 * 60_000,
        giveUpAfterMs: options.mailRetryForSeconds * 1000,
      },
      ...(options.mailTiming ? { timing: options.mailTiming } : {}),
    })
    metrics?.watchOutbox(() => outbox.counts())
    // The tests' fixture drains this sender rather than racing it with one of its own.
    app.decorate('mailOutbox', outbox)
    await app.register(openapi, { version: API_VERSION })
    await app.register(api, {
      config: options,
      database: timed,
      outbox,
      ...(options.admission ? { admission: options.admission } : {}),
      ...(options.clock ? { clock: options.clock } : {}),
      ...(options.sessionWatch ? { sessionWatch: options.sessionWatch } : {}),
      ...(options.housekeepingDelayMs !== undefined
        ? { housekeepingDelayMs: options.housekeepingDelayMs }
        : {}),
    })
    isReady = () => database.canWrite(READINESS_TIMEOUT_MS)
  }

  await app.register(health, { isReady })
  await app.register(staticFiles, {
    distDir: options.distDir,
    filesChange: options.devMode ?? false,
    https: options.https,
    // The providers' routes are the built-in API's: behind API_UPSTREAM there are none.
    signInProviders:
      database === null
        ? []
        : options.authProviders.map(({ name, buttonText, mark }) => ({
            name,
            text: buttonText,
            mark,
          })),
    passwordSignIn: database === null || options.passwordSignIn,
  })
  return app
}

/** A number of hops is given to Fastify as the function its types ask for: trust the first n. */
function trustProxySetting(setting: Config['trustProxy']) {
  return typeof setting === 'number' ? (_address: string, hop: number) => hop < setting : setting
}

async function openStore(app: FastifyInstance, options: AppOptions): Promise<Database> {
  const database = options.databaseUrl
    ? await openDatabase(
        { postgresUrl: options.databaseUrl },
        {
          onConnectionLost: (err) =>
            app.log.warn(
              { err },
              'database: a PostgreSQL connection was lost; the next query opens a new one',
            ),
        },
      )
    : await openEmbeddedStore(
        resolve(options.dataDir),
        app.log,
        options.dataDirLock,
        join(options.distDir, 'server', NEW_DATABASE_FILE),
      )
  app.log.info(
    database.engine === 'postgres'
      ? 'database: PostgreSQL (DATABASE_URL)'
      : `database: embedded SQLite in ${options.dataDir}`,
  )
  app.addHook('onClose', async () => database.close())
  return database
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The built-in API's mail sender (absent with API_UPSTREAM). */
    mailOutbox?: MailOutbox
  }
}
