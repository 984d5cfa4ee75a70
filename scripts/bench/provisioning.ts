/**
 * `npm run bench -- --only provisioning`: 10,000 people created one request at a time through
 * SCIM (POST /scim/v2/Users, as Microsoft Entra ID sends it), against the same 10,000 created the
 * way an admin adds a person (POST /api/staff/invitations) (docs/performance-bench.md,
 * "provisioning").
 *
 * For each engine (SQLite in a temporary DATA_DIR; PostgreSQL on a scratch cluster of its own,
 * scratch-postgres.ts) and each way, a fresh database: the server is built over it in this process
 * (buildApp, the same plugins as `npm start`, the real scrypt cost) and asked through app.inject(),
 * sequentially, so the figures are the server's own time without the network. The invitations'
 * mails go through the app's outbox into a mailer that only counts them (nothing leaves); its
 * sender works beside the requests, as in production, and what is left is delivered after the
 * clock stops.
 *
 *   PROVISIONING_COUNT=500            fewer people (a smoke check)
 *   PROVISIONING_ADMIN_COUNT=1000     the admin API's way on the first 1,000 of them only: each
 *                                     invitation hashes a password at the real scrypt cost, so
 *                                     10,000 take about an hour on a busy 2-core machine; the
 *                                     comparison is then per request (mean time), not total
 *   PROVISIONING_ENGINES=sqlite       one engine only (sqlite, postgres)
 */
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../../server/app'
import { loadConfig } from '../../server/config/config'
import type { Engine } from '../../server/db/portable-sql'
import type { Mailer } from '../../server/mail/mailer'
import { formatTable } from '../build/report'
import { makeTempDir, removeTempDir } from './cleanup'
import { BENCH_ADMIN } from './painel-server'
import { tinyDist } from './scale'
import {
  engineVersion,
  forEachEngine,
  type ScratchPostgres,
  type SkippedEngine,
} from './scratch-postgres'
import { median, percentile, round } from './stats'

export const PROVISIONING_COUNT = 10_000
/** Requests before the clock starts (other people's): the routes' first-call compilation. */
const WARM_UP = 50

export type Way = 'scim' | 'admin-api'

export interface WayFigures {
  way: Way
  route: string
  requests: number
  totalSeconds: number
  requestsPerSecond: number
  /** Total time over requests. */
  meanMs: number
  p50Ms: number
  p99Ms: number
  maxMs: number
  /** Invitation mails the outbox delivered to the counting mailer (0 for SCIM: it sends none). */
  mails: number
}

export interface ProvisioningEngineResult {
  engine: Engine
  version: string
  ways: WayFigures[]
  /** SCIM's mean time per request over the admin API's (their totals' ratio at equal counts). */
  scimOverAdmin: number
}

export interface ProvisioningResult {
  count: number
  engines: (ProvisioningEngineResult | SkippedEngine)[]
}

type Log = (line: string) => void

/** The n-th person, the same in both ways: a name and an address no one else has. */
function person(n: number) {
  const given = `Pessoa${n}`
  const family = 'Provisionada'
  return { given, family, email: `pessoa.${n}@empresa.example` }
}

/** POST /Users as Entra ID sends it (server/features/provisioning/corpus/entra-id.json). */
function entraUser(n: number) {
  const { given, family, email } = person(n)
  return {
    schemas: [
      'urn:ietf:params:scim:schemas:core:2.0:User',
      'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User',
    ],
    externalId: crypto.randomUUID(),
    userName: email,
    active: true,
    displayName: `${given} ${family}`,
    emails: [{ primary: true, type: 'work', value: email }],
    meta: { resourceType: 'User' },
    name: { formatted: `${given} ${family}`, familyName: family, givenName: given },
    roles: [],
  }
}

/** What the admin's form sends for the same person (Equipe, no team). */
function invitation(n: number) {
  const { given, family, email } = person(n)
  return { name: `${given} ${family}`, email, role: 'staff' }
}

/** A mailer that counts what the outbox hands it and sends nothing. */
function countingMailer(): Mailer & { count: () => number } {
  let sent = 0
  return {
    async send() {
      sent += 1
    },
    close() {},
    count: () => sent,
  }
}

/** One way's requests, each timed on its own: every answer must be 201. */
async function timeRequests(
  count: number,
  request: (n: number) => Promise<{ statusCode: number; body: string }>,
): Promise<{ durations: number[]; totalMs: number }> {
  for (let n = count; n < count + WARM_UP; n += 1) {
    const answer = await request(n)
    if (answer.statusCode !== 201) throw new Error(`warm-up ${answer.statusCode} ${answer.body}`)
  }
  const durations: number[] = []
  const started = performance.now()
  for (let n = 0; n < count; n += 1) {
    const before = performance.now()
    const answer = await request(n)
    durations.push(performance.now() - before)
    if (answer.statusCode !== 201) {
      throw new Error(`request ${n} answered ${answer.statusCode}: ${answer.body.slice(0, 300)}`)
    }
  }
  return { durations, totalMs: performance.now() - started }
}

async function measureWay(
  engine: Engine,
  way: Way,
  count: number,
  postgres: ScratchPostgres | null,
  log: Log,
): Promise<WayFigures> {
  const distDir = tinyDist()
  const dataDir = engine === 'sqlite' ? makeTempDir('painel-provisioning-') : null
  const databaseName = `painel_provisioning_${way.replace('-', '_')}`
  const databaseUrl = postgres ? await postgres.createDatabase(databaseName) : null
  const mailer = countingMailer()
  let app: FastifyInstance | null = null
  try {
    app = await buildApp({
      ...loadConfig({}),
      logLevel: 'silent',
      distDir,
      ...(dataDir ? { dataDir } : { databaseUrl }),
      mailer,
      adminEmail: BENCH_ADMIN.email,
      adminPassword: BENCH_ADMIN.password,
      mfaRequired: 'off',
      // The bench process itself is the load here: a stall is measured, not refused.
      loadShedding: { maxEventLoopDelay: 0, sampleInterval: 1000 },
    })
    const server = app
    const login = await server.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: BENCH_ADMIN,
    })
    const session = login.json<{ token?: string }>().token
    if (!session) throw new Error(`the bench admin could not sign in: ${login.statusCode}`)
    const adminHeaders = { authorization: `Bearer ${session}` }

    let route: string
    let request: (n: number) => Promise<{ statusCode: number; body: string }>
    if (way === 'scim') {
      const made = await server.inject({
        method: 'POST',
        url: '/api/scim-tokens',
        headers: adminHeaders,
        payload: { name: 'Entra ID (bench)' },
      })
      const scimToken = made.json<{ token?: string }>().token
      if (!scimToken) throw new Error(`no provisioning token: ${made.statusCode} ${made.body}`)
      route = 'POST /scim/v2/Users'
      request = (n) =>
        server.inject({
          method: 'POST',
          url: '/scim/v2/Users',
          headers: {
            authorization: `Bearer ${scimToken}`,
            'content-type': 'application/scim+json',
          },
          payload: JSON.stringify(entraUser(n)),
        })
    } else {
      route = 'POST /api/staff/invitations'
      request = (n) =>
        server.inject({
          method: 'POST',
          url: '/api/staff/invitations',
          headers: adminHeaders,
          payload: invitation(n),
        })
    }

    log(`  ${engine}, ${route}: ${count} people…`)
    const { durations, totalMs } = await timeRequests(count, request)
    // The mails still queued when the clock stopped: sent now, outside the figures.
    await server.mailOutbox?.drain()
    const sorted = [...durations].sort((a, b) => a - b)
    const figures: WayFigures = {
      way,
      route,
      requests: count,
      totalSeconds: round(totalMs / 1000, 1),
      requestsPerSecond: round(count / (totalMs / 1000), 1),
      meanMs: round(totalMs / count, 2),
      p50Ms: round(median(sorted), 2),
      p99Ms: round(percentile(sorted, 0.99), 2),
      maxMs: round(sorted[sorted.length - 1] ?? 0, 1),
      mails: mailer.count(),
    }
    log(
      `  ${engine}, ${route}: ${figures.totalSeconds} s, ${figures.requestsPerSecond} req/s, ` +
        `p50 ${figures.p50Ms} ms, p99 ${figures.p99Ms} ms`,
    )
    return figures
  } finally {
    await app?.close()
    removeTempDir(distDir)
    if (dataDir) removeTempDir(dataDir)
    if (postgres) await postgres.dropDatabase(databaseName)
  }
}

function countFromEnvironment(name: string, otherwise: number): number {
  const text = process.env[name]
  if (!text) return otherwise
  const count = Number(text)
  if (!Number.isInteger(count) || count < 1) {
    throw new Error(`${name}: "${text}" is not a positive whole number`)
  }
  return count
}

/** The people each way provisions: PROVISIONING_COUNT by SCIM, PROVISIONING_ADMIN_COUNT by the admin API. */
export function provisioningCounts(): { count: number; adminCount: number } {
  const count = countFromEnvironment('PROVISIONING_COUNT', PROVISIONING_COUNT)
  return {
    count,
    adminCount: Math.min(count, countFromEnvironment('PROVISIONING_ADMIN_COUNT', count)),
  }
}

export async function measureProvisioning(log: Log): Promise<ProvisioningResult> {
  const { count, adminCount } = provisioningCounts()
  const engines = await forEachEngine('PROVISIONING_ENGINES', log, async (engine, postgres) => {
    const version = engineVersion(postgres)
    const scim = await measureWay(engine, 'scim', count, postgres, log)
    const admin = await measureWay(engine, 'admin-api', adminCount, postgres, log)
    return {
      engine,
      version,
      ways: [scim, admin],
      scimOverAdmin: round(scim.meanMs / admin.meanMs, 3),
    }
  })
  return { count, engines }
}

export function printProvisioning(result: ProvisioningResult, log: Log): void {
  for (const engine of result.engines) {
    if ('skipped' in engine) {
      log(`${engine.engine}: skipped (${engine.skipped})`)
      continue
    }
    log(`\n${engine.version}`)
    log(
      formatTable(
        [
          'one request per person, sequential',
          'people',
          'total',
          'requests/s',
          'mean',
          'p50',
          'p99',
          'max',
          'mails',
        ],
        engine.ways.map((way) => [
          way.route,
          String(way.requests),
          `${way.totalSeconds} s`,
          String(way.requestsPerSecond),
          `${way.meanMs} ms`,
          `${way.p50Ms} ms`,
          `${way.p99Ms} ms`,
          `${way.maxMs} ms`,
          String(way.mails),
        ]),
      ),
    )
    log(`SCIM / admin API (mean time per request): ${engine.scimOverAdmin.toFixed(3)}×`)
  }
  log(
    '(server time: app.inject() in this process, sequential; a fresh database for each way; ' +
      'the invitation mails go to a counting mailer)',
  )
}
