/**
 * `npm run bench -- --only scale`: every list and page route on a year of data, against the same
 * routes on a small organisation's (docs/performance-bench.md, "scale").
 *
 * For each engine (SQLite in a temporary DATA_DIR; PostgreSQL on a scratch cluster of its own,
 * scratch-postgres.ts) and each size (1k people / 10k events, 100k / 1M, and with --huge
 * 100k / 5M), the database is made as the schema was before issue 42 (SEED_SCHEMA), filled by
 * scale-seed.ts, and then upgraded to the current schema the way a first start after an upgrade
 * does (the upgrade is timed). Then, in this process, a server is built over each size (buildApp,
 * the same plugins as `npm start`) and each route is asked through app.inject(), one request at a
 * time after a warm-up, the sizes in turn (measureSideBySide): p50 and p99 of the server's time.
 * Every query the server runs for a request is captured (Kysely's log) and run again directly on
 * the driver, as raw SQL: the server time over that SQL time is what the server adds (HTTP, auth,
 * JSON, and any work in Node). The event loop's longest stall while a route runs is read from
 * perf_hooks.
 *
 * Then the CSV export and the event loop are measured on the server as a process of its own
 * (scale-server.ts): the whole log exported through real HTTP, its RSS sampled from /proc, and
 * /healthz probed every 20 ms while the export and while the slowest list route run, and the server
 * process's own event loop asked for its longest stall over each (scale-server.ts).
 */
import { once } from 'node:events'
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks'
import { writeFileSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { Kysely, Migrator, PostgresDialect, sql, type CompiledQuery } from 'kysely'
import pg from 'pg'
import { buildApp } from '../../server/app'
import { loadConfig } from '../../server/config/config'
import { connect, migrate, type Database } from '../../server/db/database'
import { DATABASE_FILE } from '../../server/db/data-dir'
import { migrationProvider } from '../../server/db/migrations'
import { queriesByCallback } from '../../server/db/postgres-pool'
import type { Engine } from '../../server/db/portable-sql'
import type { Schema } from '../../server/db/schema'
import { EmbeddedDialect } from '../../server/db/sqlite-dialect'
import { openSqlite } from '../../server/db/sqlite-database'
import { formatTable } from '../build/report'
import { freePortSync } from '../free-port'
import { root } from '../paths'
import { hasExited, makeTempDir, removeTempDir, spawnTracked, stopChild } from './cleanup'
import { spawnBenchProcess } from './generator-process'
import { memoryOf, signIn } from './painel-server'
import { seedScale, type ScaleSize, type SeedFacts } from './scale-seed'
import {
  engineVersion,
  forEachEngine,
  type ScratchPostgres,
  type SkippedEngine,
} from './scratch-postgres'
import { median, percentile, round, sleep } from './stats'

/**
 * The schema the data is written as: the last migration before issue 42's. Every later migration
 * runs on the filled database, as at the first start of a server upgraded over a year of data.
 */
export const SEED_SCHEMA = '2026-11-28-2801-provider-link-invitations'

export const SCALE_SIZES: ScaleSize[] = [
  { label: '1k / 10k', people: 1_000, events: 10_000 },
  { label: '100k / 1M', people: 100_000, events: 1_000_000 },
]
export const HUGE_SIZE: ScaleSize = { label: '100k / 5M', people: 100_000, events: 5_000_000 }

/** Per route: at least this many timed requests, more while the time allows. */
const MIN_RUNS = 3
const MAX_RUNS = 30
/** Per route and size: the raw SQL replayed at least MIN_RUNS times, at most this many. */
const RAW_RUNS = 10
const ROUTE_BUDGET_MS = 15_000

export interface RouteFigures {
  route: string
  runs: number
  p50Ms: number
  p99Ms: number
  /** The captured queries run again on the driver: p50 of their sum. */
  rawSqlMs: number
  queries: number
  /** The event loop's longest stall while the route ran (perf_hooks, 1 ms resolution). */
  loopMaxMs: number
  status: number
}

export interface ExportFigures {
  status: number
  rows: number
  bytes: number
  seconds: number
  rowsPerSecond: number
  rssBeforeMb: number
  rssPeakMb: number
  /** /healthz while the export ran: every 20 ms. */
  healthz: { probes: number; p50Ms: number; maxMs: number; notOk: number }
  /** The server's event loop: its longest stall while the export ran (scale-server.ts). */
  loopMaxMs: number
  /** Its longest garbage collection meanwhile: a stall of about that length was V8's. */
  gcMaxMs: number
}

export interface SizeResult {
  size: ScaleSize
  seedSeconds: number
  /** Migrations from SEED_SCHEMA to the current schema, on the filled database. */
  upgradeSeconds: number
  routes: RouteFigures[]
  csv?: ExportFigures
  /** /healthz every 20 ms while the slowest list route ran once, in the server process. */
  healthzDuringSlowest?: {
    route: string
    requestMs: number
    healthz: ExportFigures['healthz']
    loopMaxMs: number
  }
  /**
   * A directory's read of the largest Group with all its members (GET /scim/v2/Groups/:id),
   * three times in the server process: each read's time and the loop's longest stall, the first
   * on a server that had not read it yet.
   */
  wholeGroup?: { members: number; requestMs: number[]; loopMaxMs: number[]; healthzMaxMs: number }
}

export interface EngineResult {
  engine: Engine
  version: string
  sizes: SizeResult[]
}

export interface ScaleResult {
  engines: (EngineResult | SkippedEngine)[]
}

type Log = (line: string) => void

/** An open database whose every query is also written to `captured` while it is set. */
interface CapturingDatabase {
  database: Database
  capture(): () => CompiledQuery[]
  /** Runs compiled queries directly on the driver, as the server's raw SQL. */
  runRaw(queries: readonly CompiledQuery[]): Promise<void>
  close(): Promise<void>
}

function capturingDatabase(engine: Engine, location: string): CapturingDatabase {
  let captured: CompiledQuery[] | null = null
  // The request's reads: a write cannot be run twice (and the outbox's sender, which works
  // beside the requests, writes; its reads are few).
  const log = (event: { level: string; query: CompiledQuery }) => {
    if (captured && event.level === 'query' && /^\s*(select|with)\b/i.test(event.query.sql)) {
      captured.push(event.query)
    }
  }
  if (engine === 'sqlite') {
    const sqlite = openSqlite(location)
    const db = new Kysely<Schema>({ dialect: new EmbeddedDialect(sqlite), log })
    const bindable = (value: unknown) =>
      value instanceof Date
        ? value.toISOString()
        : typeof value === 'boolean'
          ? Number(value)
          : value
    return {
      database: databaseOf(db, engine),
      capture() {
        captured = []
        const mine = captured
        return () => {
          captured = null
          return mine
        }
      },
      async runRaw(queries) {
        for (const query of queries) {
          sqlite.raw.prepare(query.sql).all(query.parameters.map(bindable))
        }
      },
      close: () => db.destroy(),
    }
  }
  // The pool as the server gives it to Kysely (server/db/database.ts); the raw SQL below goes
  // through it too, so both sides of the ratio reach pg the same way.
  const pool = queriesByCallback(new pg.Pool({ connectionString: location, max: 10 }))
  const db = new Kysely<Schema>({ dialect: new PostgresDialect({ pool }), log })
  return {
    database: databaseOf(db, engine),
    capture() {
      captured = []
      const mine = captured
      return () => {
        captured = null
        return mine
      }
    },
    async runRaw(queries) {
      const client = await pool.connect()
      try {
        for (const query of queries) await client.query(query.sql, query.parameters)
      } finally {
        client.release()
      }
    },
    close: () => db.destroy(),
  }
}

function databaseOf(db: Kysely<Schema>, engine: Engine): Database {
  return { db, engine, canWrite: async () => true, close: () => db.destroy() }
}

/** A dist/ of one page: the routes measured are the API's. */
export function tinyDist(): string {
  const dir = makeTempDir('painel-scale-dist-')
  const html =
    '<!doctype html><html lang="pt-BR"><head><title>Painel</title></head><body></body></html>'
  writeFileSync(join(dir, 'index.html'), html)
  return dir
}

interface Api {
  get(path: string): Promise<{ status: number; body: string }>
}

/** The routes measured, each with the URL it is asked as; some need an answer first (a cursor). */
async function routeList(
  api: Api,
  facts: SeedFacts,
  oldestCursor: string,
): Promise<[string, string][]> {
  const json = async <T>(path: string) => JSON.parse((await api.get(path)).body) as T
  const first = await json<{ total: number; pageSize: number; next?: string | null }>('/api/staff')
  // The cursor pages (issue 42) or, before them, offsets.
  const keyed = 'next' in first
  const next = keyed
    ? `/api/staff?after=${encodeURIComponent(first.next ?? '')}`
    : '/api/staff?page=2'
  const last = keyed
    ? '/api/staff?page=last'
    : `/api/staff?page=${Math.max(1, Math.ceil(first.total / first.pageSize))}`
  const middle = new Date((facts.from.getTime() + facts.to.getTime()) / 2)
  const week = `from=${middle.toISOString()}&to=${new Date(middle.getTime() + 7 * 86_400_000).toISOString()}`
  return [
    ['Equipe, first page', '/api/staff'],
    ['Equipe, next page', next],
    ['Equipe, last page', last],
    ['Equipe, search "joao"', '/api/staff?q=joao'],
    ['Equipe, search "conceicao"', '/api/staff?q=conceicao'],
    ['Equipe, search "empresa" (every e-mail)', '/api/staff?q=empresa'],
    // A first name past the window a search first reads from the start of the default order's
    // segments (the m's): the page is read from a window at its first match (staff-list.ts, inNameOrder).
    ['Equipe, search "maria"', '/api/staff?q=maria'],
    // A first name in the order of names: its matches sit far along it (the j's), past the
    // window a search first reads (server/features/staff/staff-list.ts, windowPage).
    ['Equipe, search "joao" by name', '/api/staff?q=joao&sort=name'],
    // "maria" in the order of names too: a search's every sort is a route of issue 42.
    ['Equipe, search "maria" by name', '/api/staff?q=maria&sort=name'],
    // A search with a filter: the count and the page from the search index's matches, not the
    // filter's index (server/features/staff/staff-total.ts).
    ['Equipe, search "joao" among the active', '/api/staff?q=joao&status=active'],
    ['Equipe, active, by creation', '/api/staff?status=active&sort=createdAt'],
    ['Equipe, sort name', '/api/staff?sort=name'],
    ['Equipe, sort -name', '/api/staff?sort=-name'],
    ['Equipe, sort createdAt', '/api/staff?sort=createdAt'],
    ['Equipe, sort -createdAt', '/api/staff?sort=-createdAt'],
    ['Equipe, sort lastSignInAt', '/api/staff?sort=lastSignInAt'],
    ['Equipe, sort -lastSignInAt', '/api/staff?sort=-lastSignInAt'],
    ['Equipe, status pending', '/api/staff?status=pending'],
    ['Equipe, status invited', '/api/staff?status=invited'],
    ['Equipe, status active', '/api/staff?status=active'],
    ['Equipe, status disabled', '/api/staff?status=disabled'],
    ['Equipe, role Administrador', `/api/staff?roleId=${facts.adminRoleId}`],
    ['Equipe, role Coordenação', `/api/staff?roleId=${facts.customRoleId}`],
    ['Equipe, a team', `/api/staff?teamId=${facts.teamIds[0]}`],
    ['Equipe, no team', '/api/staff?teamId=none'],
    ['Equipe, locked', '/api/staff?locked=true'],
    ['Equipe, not locked', '/api/staff?locked=false'],
    ['Equipe, with 2FA', '/api/staff?mfa=true'],
    ['Equipe, without 2FA', '/api/staff?mfa=false'],
    ["an account's page", `/api/staff/${facts.person.id}`],
    ["an account's page, its history", `/api/audit?account=${facts.person.id}`],
    ['Auditoria, first page', '/api/audit'],
    ['Auditoria, by person (actor: an admin)', `/api/audit?actor=${facts.admin.id}`],
    ['Auditoria, by type', '/api/audit?type=password_changed'],
    ['Auditoria, by dates (a week)', `/api/audit?${week}`],
    ['Auditoria, deepest "Carregar mais"', `/api/audit?before=${encodeURIComponent(oldestCursor)}`],
    ['Início (dashboard)', '/api/dashboard'],
    ['Início, my activity', '/api/dashboard/me'],
    ['sessions (Minha conta)', '/api/me/sessions'],
    // Loaded with Equipe, an account's page and the invitation (their role and team choices).
    ['Papéis (the roles, counted)', '/api/roles'],
    ['Times (the teams, counted, with managers)', '/api/teams'],
  ]
}

/**
 * The directory's reads (/scim/v2, docs/provisioning.md), asked with a provisioning token: Users
 * pages, a Group as Entra ID reads it (without its members) and as Okta does (with them all: its
 * answer grows with the team, about 12,000 people and 2 MB at 100k, so its growth is the team's).
 */
function scimRouteList(facts: SeedFacts, size: ScaleSize): [string, string][] {
  const team = facts.teamIds[0]!.toLowerCase()
  return [
    ['SCIM, Users, first page', '/scim/v2/Users?count=100'],
    [
      'SCIM, Users, a page from the middle',
      `/scim/v2/Users?startIndex=${size.people / 2}&count=100`,
    ],
    ['SCIM, a Group without its members', `/scim/v2/Groups/${team}?excludedAttributes=members`],
    ['SCIM, a Group with all its members', `/scim/v2/Groups/${team}`],
  ]
}

/** A route as one size's server is asked it: its URL there and the token it is asked with. */
interface SizeRoute {
  route: string
  url: string
  token: string
}

/** A size's server in this process (buildApp over its database), signed in, with its routes. */
interface SizeServer {
  /** The size's label, as the log prints it. */
  label: string
  app: FastifyInstance
  capturing: CapturingDatabase
  routes: SizeRoute[]
  close(): Promise<void>
}

/**
 * Every route on every size's server, the sizes side by side: each round of requests asks each
 * size once, in an order that turns from round to round, so that the growth ratio divides two
 * figures taken over the same seconds of the machine. Measured one size after the other, minutes
 * apart, the small size's figures moved with whatever else the machine did then: "empresa" on
 * SQLite grew 1.60× at cec1b3a and 3.00× at d9533ba, its code unchanged between them.
 */
async function measureSideBySide(servers: SizeServer[], log: Log) {
  const figures: RouteFigures[][] = servers.map(() => [])
  const loop = monitorEventLoopDelay({ resolution: 1 })
  loop.enable()
  // This process's longest garbage collection over each route, printed beside its stalls: the
  // servers share the process with the bench, whose seeding leaves V8 a large heap to collect.
  let gcMaxMs = 0
  const collections = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gcMaxMs = Math.max(gcMaxMs, entry.duration)
  })
  collections.observe({ entryTypes: ['gc'] })
  // Its first sample counts from its creation's clock: dropped.
  await sleep(5)
  for (const [index, { route }] of servers[0]!.routes.entries()) {
    gcMaxMs = 0
    const sized = servers.map((server) => {
      const { url, token } = server.routes[index]!
      const headers = { authorization: `Bearer ${token}` }
      return {
        server,
        ask: () => server.app.inject({ method: 'GET', url, headers }),
        status: 0,
        queries: [] as CompiledQuery[],
        times: [] as number[],
        raw: [] as number[],
        loopMaxMs: 0,
      }
    })
    for (const size of sized) {
      // Warm-up: up to 5 requests within 2 s, so that a fast route is measured compiled (the
      // small size, asked first, would otherwise pay the JIT's start for all).
      size.status = (await size.ask()).statusCode
      const warming = performance.now()
      for (let run = 1; run < 5 && performance.now() - warming < 2000; run += 1) await size.ask()
      const stop = size.server.capturing.capture()
      await size.ask()
      size.queries = stop()
    }
    const budget = ROUTE_BUDGET_MS * sized.length
    const inTurn = (round: number) => sized.map((_, at) => sized[(at + round) % sized.length]!)
    const started = performance.now()
    for (
      let round = 0;
      round < MIN_RUNS || (round < MAX_RUNS && performance.now() - started < budget);
      round += 1
    ) {
      for (const size of inTurn(round)) {
        loop.reset()
        const begin = performance.now()
        await size.ask()
        size.times.push(performance.now() - begin)
        // A turn of the event loop after the request, so that its timer samples the stall the
        // request caused (a SQLite request is one synchronous stretch of promises).
        await sleep(1)
        size.loopMaxMs = Math.max(size.loopMaxMs, loop.max / 1e6)
      }
    }
    const rawStarted = performance.now()
    for (
      let round = 0;
      round < MIN_RUNS || (round < RAW_RUNS && performance.now() - rawStarted < budget);
      round += 1
    ) {
      for (const size of inTurn(round)) {
        const begin = performance.now()
        await size.server.capturing.runRaw(size.queries)
        size.raw.push(performance.now() - begin)
        await sleep(1)
      }
    }
    const parts: string[] = []
    sized.forEach((size, at) => {
      const sorted = [...size.times].sort((a, b) => a - b)
      const result: RouteFigures = {
        route,
        runs: size.times.length,
        p50Ms: round(median(size.times), 2),
        p99Ms: round(percentile(sorted, 0.99), 2),
        rawSqlMs: round(median(size.raw), 2),
        queries: size.queries.length,
        loopMaxMs: round(size.loopMaxMs, 1),
        status: size.status,
      }
      figures[at]!.push(result)
      parts.push(
        `${size.server.label}: ${result.status}, p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms, ` +
          `raw SQL ${result.rawSqlMs} ms (${result.queries} queries), loop max ${result.loopMaxMs} ms`,
      )
    })
    log(`    ${route}: ${parts.join('; ')}; longest garbage collection ${round(gcMaxMs, 1)} ms`)
  }
  collections.disconnect()
  loop.disable()
  return figures
}

/** Sends a request over a socket of its own, reading the answer as it comes and dropping it. */
function streamGet(
  url: string,
  token: string,
  onChunk: (chunk: Buffer) => void,
): Promise<{ status: number; ms: number }> {
  const begin = performance.now()
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      { headers: { authorization: `Bearer ${token}` } },
      (answer) => {
        answer.on('data', onChunk)
        answer.on('end', () =>
          resolve({ status: answer.statusCode ?? 0, ms: performance.now() - begin }),
        )
        answer.on('error', reject)
      },
    )
    request.on('error', reject)
    request.end()
  })
}

/**
 * /healthz every 20 ms from now until `stop()`: its answer times. The probe is a process of its
 * own (health-probe-process.ts), at this one's priority: this one reads the export, and a probe
 * here timed its own waits as well as the server's. Resolves once the probe has its first answer.
 */
async function startHealthProbe(baseUrl: string) {
  const probe = spawnBenchProcess<{ times: number[]; notOk: number }>(
    'health-probe-process.ts',
    `${baseUrl}/healthz`,
    'probing',
    { niced: false },
  )
  // Raced with the outcome, which then has a handler: an early end is stop()'s error.
  await Promise.race([probe.started, probe.outcome])
  return {
    async stop() {
      probe.endInput()
      const { times, notOk } = await probe.outcome
      return {
        probes: times.length,
        p50Ms: times.length ? round(median(times), 1) : 0,
        maxMs: times.length ? round(Math.max(...times), 1) : 0,
        notOk,
      }
    },
  }
}

/** The server as a process of its own (scale-server.ts) over the filled database. */
async function measureInProcessOfItsOwn(
  engine: Engine,
  location: string,
  facts: SeedFacts,
  slowest: { route: string; url: string },
  log: Log,
): Promise<Pick<SizeResult, 'csv' | 'healthzDuringSlowest' | 'wholeGroup'>> {
  const port = freePortSync()
  const child = spawnTracked(
    process.execPath,
    ['--import', 'tsx', join(root, 'scripts', 'bench', 'scale-server.ts')],
    {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        MFA_REQUIRED: 'off',
        ...(engine === 'sqlite' ? { DATA_DIR: location } : { DATABASE_URL: location }),
      },
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    },
  )
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const baseUrl = `http://127.0.0.1:${port}`
  // An answer the server died before giving is an error; its exit at the end is none.
  const exited = once(child, 'exit').then(() => {
    throw new Error(`scale-server exited: ${stderr}`)
  })
  exited.catch(() => {})
  // The server's event loop: its longest stall since the last time it was asked, and its longest
  // garbage collection, which tells whether V8 made a stall.
  const stalls = async () => {
    const answer = once(child, 'message') as Promise<[{ loopMaxMs: number; gcMaxMs: number }]>
    child.send('loop')
    const [figures] = await Promise.race([answer, exited])
    return { loopMaxMs: round(figures.loopMaxMs, 1), gcMaxMs: round(figures.gcMaxMs, 1) }
  }
  try {
    const deadline = performance.now() + 120_000
    for (;;) {
      if (hasExited(child)) throw new Error(`scale-server exited: ${stderr}`)
      try {
        if ((await fetch(`${baseUrl}/healthz`)).status === 200) break
      } catch {
        // not yet listening
      }
      if (performance.now() > deadline) throw new Error(`scale-server did not start: ${stderr}`)
      await sleep(100)
    }
    const token = await signIn(baseUrl, facts.admin)

    // The slowest list route, once, with /healthz beside it.
    const slowProbe = await startHealthProbe(baseUrl)
    await stalls()
    const slowAnswer = await streamGet(`${baseUrl}${slowest.url}`, token, () => {})
    const loopSlow = (await stalls()).loopMaxMs
    const healthzSlow = await slowProbe.stop()
    log(
      `    /healthz while "${slowest.route}" ran (${Math.round(slowAnswer.ms)} ms): ` +
        `p50 ${healthzSlow.p50Ms} ms, max ${healthzSlow.maxMs} ms, ${healthzSlow.notOk} not 200; ` +
        `the server's loop stalled ${loopSlow} ms at most`,
    )

    // The largest Group, whole, as Okta reads it: three times.
    const scimToken = await fetch(`${baseUrl}/api/scim-tokens`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Bench' }),
    })
    const scim = ((await scimToken.json()) as { token: string }).token
    const groupUrl = `${baseUrl}/scim/v2/Groups/${facts.teamIds[0]!.toLowerCase()}`
    const groupProbe = await startHealthProbe(baseUrl)
    const wholeGroup: NonNullable<SizeResult['wholeGroup']> = {
      members: 0,
      requestMs: [],
      loopMaxMs: [],
      healthzMaxMs: 0,
    }
    for (let read = 0; read < 3; read += 1) {
      await stalls()
      const chunks: Buffer[] = []
      const answer = await streamGet(groupUrl, scim, (chunk) => chunks.push(chunk))
      wholeGroup.loopMaxMs.push((await stalls()).loopMaxMs)
      wholeGroup.requestMs.push(Math.round(answer.ms))
      const group = JSON.parse(Buffer.concat(chunks).toString()) as { members?: unknown[] }
      wholeGroup.members = group.members?.length ?? 0
    }
    wholeGroup.healthzMaxMs = (await groupProbe.stop()).maxMs
    log(
      `    a Group of ${wholeGroup.members}, whole, three times: ${wholeGroup.requestMs.join(', ')} ms; ` +
        `the server's loop stalled ${wholeGroup.loopMaxMs.join(', ')} ms at most; ` +
        `/healthz max ${wholeGroup.healthzMaxMs} ms`,
    )

    // The whole log as CSV.
    await sleep(500)
    const pid = child.pid!
    const rssBeforeMb = memoryOf(pid).rssMb
    let rssPeakMb = rssBeforeMb
    const sampler = setInterval(() => {
      try {
        rssPeakMb = Math.max(rssPeakMb, memoryOf(pid).rssMb)
      } catch {
        // the process ended
      }
    }, 25)
    let bytes = 0
    let lines = 0
    const exportProbe = await startHealthProbe(baseUrl)
    await stalls()
    const exported = streamGet(`${baseUrl}/api/audit.csv`, token, (chunk) => {
      bytes += chunk.length
      for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines += 1
    })
    const { status, ms } = await exported
    const { loopMaxMs: loopExport, gcMaxMs: gcExport } = await stalls()
    const healthz = await exportProbe.stop()
    clearInterval(sampler)
    const rows = Math.max(0, lines - 1)
    const csv: ExportFigures = {
      status,
      rows,
      bytes,
      seconds: round(ms / 1000, 2),
      rowsPerSecond: Math.round(rows / (ms / 1000)),
      rssBeforeMb: round(rssBeforeMb, 1),
      rssPeakMb: round(rssPeakMb, 1),
      healthz,
      loopMaxMs: loopExport,
      gcMaxMs: gcExport,
    }
    log(
      `    audit CSV: ${status}, ${rows} rows, ${(bytes / 1e6).toFixed(1)} MB in ${csv.seconds} s ` +
        `(${csv.rowsPerSecond} rows/s), RSS ${csv.rssBeforeMb} → peak ${csv.rssPeakMb} MB; ` +
        `/healthz p50 ${healthz.p50Ms} ms, max ${healthz.maxMs} ms; ` +
        `the server's loop stalled ${loopExport} ms at most, its longest garbage collection ` +
        `${gcExport} ms`,
    )
    return {
      csv,
      wholeGroup,
      healthzDuringSlowest: {
        route: slowest.route,
        requestMs: Math.round(slowAnswer.ms),
        healthz: healthzSlow,
        loopMaxMs: loopSlow,
      },
    }
  } finally {
    await stopChild(child)
  }
}

/** A size's database, filled as the schema was and upgraded: measured, then removed. */
interface FilledSize {
  size: ScaleSize
  seedSeconds: number
  upgradeSeconds: number
  facts: SeedFacts
  /** The log's 51st oldest event, as Auditoria's cursor: the deepest "Carregar mais". */
  oldestCursor: string
  /** The database: SQLite's file or PostgreSQL's URL. */
  location: string
  /** What the server is started with: SQLite's DATA_DIR or PostgreSQL's URL. */
  serverLocation: string
  remove(): Promise<void>
}

async function fillSize(
  engine: Engine,
  size: ScaleSize,
  postgres: ScratchPostgres | null,
  log: Log,
): Promise<FilledSize> {
  let location: string
  let serverLocation: string
  let remove: () => Promise<void>
  if (engine === 'sqlite') {
    const dataDir = makeTempDir('painel-scale-')
    location = join(dataDir, DATABASE_FILE)
    serverLocation = dataDir
    remove = async () => removeTempDir(dataDir)
  } else {
    const name = `painel_scale_${size.events}`
    await postgres!.dropDatabase(name)
    location = await postgres!.createDatabase(name)
    serverLocation = location
    remove = () => postgres!.dropDatabase(name)
  }
  const where = engine === 'sqlite' ? { sqliteFile: location } : { postgresUrl: location }
  try {
    log(`  ${engine}, ${size.label}: seeding…`)
    const seeding = connect(where)
    const { error } = await new Migrator({
      db: seeding,
      provider: migrationProvider(engine),
    }).migrateTo(SEED_SCHEMA)
    if (error) throw error instanceof Error ? error : new Error(JSON.stringify(error))
    const facts = await seedScale(seeding, engine, size)
    await seeding.destroy()
    // A first start after the upgrade: the migrations since SEED_SCHEMA, on the filled database.
    const upgrading = connect(where)
    const upgradeStarted = performance.now()
    await migrate(upgrading, engine)
    const upgradeSeconds = round((performance.now() - upgradeStarted) / 1000, 2)
    // PostgreSQL: measured as autovacuum leaves a database that has run for a while. Straight
    // after a bulk load and an upgrade that rewrote columns, no page is marked all-visible (an
    // index-only scan then reads the table for every row) and autovacuum starts in the middle of
    // the measurements: Equipe's first page took 5.2, 7.6 and 12.6 ms in three runs of one day.
    if (engine === 'postgres') await sql`vacuum analyze`.execute(upgrading)
    const oldest = await sql<{ at: Date | string; id: string }>`
      select at, id from audit_events order by at, id limit 1 offset 50`.execute(upgrading)
    const row = oldest.rows[0]!
    const oldestCursor = `${new Date(row.at).toISOString()}~${row.id}`
    await upgrading.destroy()
    const seedSeconds = round(facts.seedMs / 1000, 1)
    log(`  ${engine}, ${size.label}: seeded in ${seedSeconds} s, upgraded in ${upgradeSeconds} s`)
    return {
      size,
      seedSeconds,
      upgradeSeconds,
      facts,
      oldestCursor,
      location,
      serverLocation,
      remove,
    }
  } catch (error) {
    await remove()
    throw error
  }
}

/** The server over a filled size in this process, signed in as its admin and as a directory. */
async function openServer(engine: Engine, filled: FilledSize): Promise<SizeServer> {
  const capturing = capturingDatabase(engine, filled.location)
  const distDir = tinyDist()
  const app = await buildApp({
    ...loadConfig({}),
    logLevel: 'silent',
    distDir,
    database: capturing.database,
    mfaRequired: 'off',
    // The bench process itself is the load here: a stall is measured, not refused.
    loadShedding: { maxEventLoopDelay: 0, sampleInterval: 1000 },
  })
  const close = async () => {
    await app.close()
    await capturing.close()
    removeTempDir(distDir)
  }
  try {
    const { admin } = filled.facts
    const login = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: admin.email, password: admin.password },
    })
    const { token } = login.json<{ token?: string }>()
    if (!token)
      throw new Error(`the bench admin could not sign in: ${login.statusCode} ${login.body}`)
    const api: Api = {
      get: async (url) => {
        const answer = await app.inject({
          method: 'GET',
          url,
          headers: { authorization: `Bearer ${token}` },
        })
        return { status: answer.statusCode, body: answer.body }
      },
    }
    const scimToken = await app.inject({
      method: 'POST',
      url: '/api/scim-tokens',
      headers: { authorization: `Bearer ${token}` },
      payload: { name: 'Bench' },
    })
    const scim = scimToken.json<{ token: string }>().token
    const routes = [
      ...(await routeList(api, filled.facts, filled.oldestCursor)).map(([route, url]) => ({
        route,
        url,
        token,
      })),
      ...scimRouteList(filled.facts, filled.size).map(([route, url]) => ({
        route,
        url,
        token: scim,
      })),
    ]
    return { label: filled.size.label, app, capturing, routes, close }
  } catch (error) {
    await close()
    throw error
  }
}

/**
 * One engine: every size filled, then every route measured on all of them side by side
 * (measureSideBySide), then each size's server as a process of its own.
 */
async function measureEngine(
  engine: Engine,
  sizes: ScaleSize[],
  postgres: ScratchPostgres | null,
  log: Log,
): Promise<SizeResult[]> {
  const filled: FilledSize[] = []
  try {
    for (const size of sizes) filled.push(await fillSize(engine, size, postgres, log))
    const servers: SizeServer[] = []
    let figures: RouteFigures[][]
    try {
      for (const size of filled) servers.push(await openServer(engine, size))
      const names = servers.map((server) => server.routes.map(({ route }) => route).join('\n'))
      if (new Set(names).size !== 1) throw new Error('the sizes were given different routes')
      log(`  ${engine}: every route, ${sizes.map((size) => size.label).join(' and ')} in turn`)
      figures = await measureSideBySide(servers, log)
    } finally {
      for (const server of servers) await server.close()
    }
    const results: SizeResult[] = []
    for (const [at, size] of filled.entries()) {
      const routes = figures[at]!
      const slowest = routes
        .filter((route) => route.route.startsWith('Equipe'))
        .reduce((a, b) => (b.p50Ms > a.p50Ms ? b : a))
      const { url } = servers[at]!.routes.find(({ route }) => route === slowest.route)!
      log(`  ${engine}, ${size.size.label}: the server as a process of its own`)
      const ownProcess = await measureInProcessOfItsOwn(
        engine,
        size.serverLocation,
        size.facts,
        { route: slowest.route, url },
        log,
      )
      results.push({
        size: size.size,
        seedSeconds: size.seedSeconds,
        upgradeSeconds: size.upgradeSeconds,
        routes,
        ...ownProcess,
      })
    }
    return results
  } finally {
    for (const size of filled) await size.remove()
  }
}

/** SCALE_SIZES=people/events,…: other sizes, for a quick look while changing a query. */
function sizesFromEnvironment(): ScaleSize[] | null {
  const text = process.env.SCALE_SIZES
  if (!text) return null
  return text.split(',').map((pair) => {
    const [people, events] = pair.split('/').map(Number)
    if (!people || !events) throw new Error(`SCALE_SIZES: "${pair}" is not people/events`)
    return { label: `${people} / ${events}`, people, events }
  })
}

export async function measureScale(options: { huge: boolean }, log: Log): Promise<ScaleResult> {
  const sizes = sizesFromEnvironment() ?? (options.huge ? [...SCALE_SIZES, HUGE_SIZE] : SCALE_SIZES)
  // SCALE_ENGINES=postgres (or sqlite): one engine only.
  const engines = await forEachEngine('SCALE_ENGINES', log, async (engine, postgres) => {
    const engineResult: EngineResult = {
      engine,
      version: engineVersion(postgres),
      sizes: await measureEngine(engine, sizes, postgres, log),
    }
    return engineResult
  })
  return { engines }
}

const GOAL = 'goal: p50 ≤ 50 ms, ≤ 2× small, ≤ 1.5× SQL'

/** The tables the section prints: one per engine, the sizes side by side. */
export function printScale(result: ScaleResult, log: Log): void {
  for (const engine of result.engines) {
    if ('skipped' in engine) {
      log(`${engine.engine}: skipped (${engine.skipped})`)
      continue
    }
    const [small, ...larger] = engine.sizes
    if (!small) continue
    log(`\n${engine.version}`)
    log(
      formatTable(
        ['size', 'seeded in', 'upgrade to the current schema (first start)'],
        engine.sizes.map((size) => [
          size.size.label,
          `${size.seedSeconds} s`,
          `${size.upgradeSeconds} s`,
        ]),
      ),
    )
    for (const large of larger) {
      log(
        formatTable(
          [
            `route (server time, ms)`,
            `${small.size.label} p50 / p99`,
            `${large.size.label} p50 / p99`,
            'growth (p50)',
            'server / raw SQL',
            'loop max',
            GOAL,
          ],
          large.routes.map((route) => {
            const before = small.routes.find((candidate) => candidate.route === route.route)
            const growth = before ? route.p50Ms / before.p50Ms : NaN
            const overSql = route.rawSqlMs > 0 ? route.p50Ms / route.rawSqlMs : NaN
            const missed = [
              route.status !== 200 || before?.status !== 200
                ? `status ${before?.status} / ${route.status}`
                : '',
              route.p50Ms > 50 ? 'p50' : '',
              growth > 2 ? 'growth' : '',
              overSql > 1.5 ? 'SQL ratio' : '',
            ].filter(Boolean)
            return [
              route.route,
              before ? `${before.p50Ms} / ${before.p99Ms}` : 'n/a',
              `${route.p50Ms} / ${route.p99Ms}`,
              Number.isFinite(growth) ? `${growth.toFixed(2)}×` : 'n/a',
              Number.isFinite(overSql) ? `${overSql.toFixed(2)}×` : 'n/a',
              `${route.loopMaxMs} ms`,
              missed.length === 0 ? 'met' : `MISSED (${missed.join(', ')})`,
            ]
          }),
        ),
      )
    }
    log(
      formatTable(
        [
          'in a server process of its own',
          'audit CSV, whole log',
          'rows/s',
          'RSS before → peak',
          '/healthz during export p50 / max; loop (longest GC)',
          '/healthz during the slowest Equipe route',
          'a Group, whole (SCIM), three reads: loop',
        ],
        engine.sizes.map((size) => [
          size.size.label,
          size.csv ? `${size.csv.status}: ${size.csv.rows} rows in ${size.csv.seconds} s` : 'n/a',
          size.csv ? String(size.csv.rowsPerSecond) : 'n/a',
          size.csv
            ? `${size.csv.rssBeforeMb} → ${size.csv.rssPeakMb} MB (+${round(size.csv.rssPeakMb - size.csv.rssBeforeMb, 1)})`
            : 'n/a',
          size.csv
            ? `${size.csv.healthz.p50Ms} / ${size.csv.healthz.maxMs} ms; ${size.csv.loopMaxMs} ms (${size.csv.gcMaxMs} ms)`
            : 'n/a',
          size.healthzDuringSlowest
            ? `${size.healthzDuringSlowest.route} (${size.healthzDuringSlowest.requestMs} ms): max ${size.healthzDuringSlowest.healthz.maxMs} ms, ${size.healthzDuringSlowest.healthz.notOk} not 200; loop ${size.healthzDuringSlowest.loopMaxMs} ms`
            : 'n/a',
          size.wholeGroup
            ? `${size.wholeGroup.members} members: ${size.wholeGroup.loopMaxMs.join(', ')} ms`
            : 'n/a',
        ]),
      ),
    )
  }
  log(
    '(server time: app.inject() in this process; raw SQL: the queries the request ran, run again on ' +
      "the driver; loop: the server process's event loop, its longest stall; goals of issue 42: " +
      'CSV ≥ 50,000 rows/s and RSS + ≤ 32 MB; no request holds the loop for more than 50 ms)',
  )
}
