/**
 * The panel under more load than it can serve (issue 44), on each engine: a staff of a few
 * thousand people with their audit log (OVERLOAD_SIZE, seeded as the scale section seeds:
 * scale-seed.ts), then `connections` clients at
 * nice 19 on the same two cores sending Equipe and Auditoria reads and sign-ins as fast as they
 * are answered (overload-generator.ts), while the bench probes /healthz as an orchestrator does
 * and watches the server's memory.
 *
 * What it prints, per engine: the answers by route and status, p50/p99 of the served answers and
 * of the refusals, /healthz p99 idle and under the load, RSS idle (after the first answers),
 * peak and after the load, and the refusals the server's own metrics counted. SQLite is a fresh
 * DATA_DIR; PostgreSQL a scratch cluster the bench starts (scratch-postgres.ts), skipped with the
 * reason where it cannot be started here.
 */
import { readFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { formatTable } from '../build/report'
import { freePortSync } from '../free-port'
import { openDatabase, type Database } from '../../server/db/database'
import { openEmbeddedStore } from '../../server/db/embedded-store'
import type { Engine } from '../../server/db/portable-sql'
import { makeTempDir, removeTempDir, stopChild } from './cleanup'
import { cpuMs } from './cpu'
import type { BuildUnderTest } from './dist-snapshot'
import { probeHealth, type ProbeFigures } from './flood'
import { GENERATOR_NICE, spawnGenerator } from './generator-process'
import type { OverloadLoad, OverloadOutcome } from './overload-generator'
import {
  probeReads,
  PROBE_READ_INTERVAL_MS,
  type LatencyFigures,
  type ReadProbe,
} from './read-probe'
import { memoryOf, signIn, spawnPainel, waitForOk } from './painel-server'
import { SEEDED_PASSWORD, seedScale, type ScaleSize } from './scale-seed'
import { forEachEngine, type ScratchPostgres, type SkippedEngine } from './scratch-postgres'
import { round, sleep } from './stats'

export interface OverloadSettings {
  connections: number
  durationSeconds: number
  /** /healthz probed this long on the idle server first (the yardstick). */
  idleSeconds: number
  /** RSS is read this long after the load ends. */
  afterSeconds: number
}

export const OVERLOAD_SETTINGS: Record<'full' | 'quick', OverloadSettings> = {
  // V8 gives the heap back a minute or so after the load (its memory reducer), not at once.
  full: { connections: 200, durationSeconds: 60, idleSeconds: 5, afterSeconds: 90 },
  quick: { connections: 200, durationSeconds: 15, idleSeconds: 2, afterSeconds: 30 },
}

/** The staff and log the load reads: the people and events of a mid-sized organisation. */
export const OVERLOAD_SIZE: ScaleSize = {
  label: '3k people / 100k events',
  people: 3000,
  events: 100_000,
}

/** Every sign-in in this many uses a wrong password. */
const WRONG_EVERY = 5

export interface EngineOverload {
  engine: Engine
  seed: { people: number; events: number; seconds: number }
  healthz: { idle: ProbeFigures; load: ProbeFigures }
  load: OverloadOutcome
  /** A reader at the server's priority beside the load (read-probe.ts): what a person gets. */
  reads: Record<'GET /api/staff' | 'GET /api/audit', ReadProbe>
  /** RSS in MB: idle (after the first answers), peak (VmHWM), and `afterSeconds` after the load. */
  rssMb: { idle: number; peak: number; after: number; afterSeries: number[] }
  /** What RSS is made of, idle and `afterSeconds` after the load (memoryParts). */
  memoryParts: { idle: string; after: string }
  /** The server's own count of what it refused (its /metrics), by status. */
  metricsRefusals: Record<string, number>
  /** The server's log at warn and above (LOG_LEVEL=warn): what an operator sees. */
  log: ServerLog
  serverCpuPercent: number | null
  generatorCpuPercent: number
  loadAverage: { before: number[]; after: number[] }
}

export interface OverloadResult extends OverloadSettings {
  generatorNice: number
  engines: (EngineOverload | SkippedEngine)[]
}

export interface ServerLog {
  /** Lines about refusals (server/http/refusals.ts: the first at once, then a count every 10 s). */
  refusalLines: number
  /** The requests those lines count. */
  refusalsLogged: number
  /** Any other warning or error, by message (mails written to the log left out). */
  other: Record<string, number>
}

function readLog(lines: readonly string[]): ServerLog {
  const log: ServerLog = { refusalLines: 0, refusalsLogged: 0, other: {} }
  for (const line of lines) {
    let entry: { level?: number; msg?: string; refused?: Record<string, number> }
    try {
      entry = JSON.parse(line) as typeof entry
    } catch {
      continue
    }
    const message = entry.msg ?? ''
    if ((entry.level ?? 0) < 40 || message.startsWith('mail not sent')) continue
    if (message.startsWith('refusing requests')) {
      log.refusalLines += 1
      log.refusalsLogged += 1
    } else if (message.startsWith('refused ')) {
      log.refusalLines += 1
      log.refusalsLogged += Object.values(entry.refused ?? {}).reduce((sum, n) => sum + n, 0)
    } else {
      const key = message.slice(0, 80)
      log.other[key] = (log.other[key] ?? 0) + 1
    }
  }
  return log
}

/**
 * What the server's resident memory is made of (MB): V8's heap (its metrics), memory V8 knows of
 * outside it (Buffers), the process's threads, and the rest of its anonymous memory (malloc's
 * arenas, the worker threads' own heaps). Read beside RSS, it says which of them a load leaves
 * grown.
 */
function memoryParts(pid: number, metrics: string): string {
  const metric = (name: string) =>
    Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)`, 'm').exec(metrics)?.[1] ?? NaN) / 1048576
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const threads = /^Threads:\s+(\d+)/m.exec(status)?.[1] ?? '?'
  const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8')
  const anonymous = Number(/^Anonymous:\s+(\d+) kB/m.exec(rollup)?.[1] ?? NaN) / 1024
  return [
    `V8 heap ${metric('nodejs_heap_size_total_bytes').toFixed(1)} (used ${metric('nodejs_heap_size_used_bytes').toFixed(1)})`,
    `external ${metric('nodejs_external_memory_bytes').toFixed(1)}`,
    `anonymous ${anonymous.toFixed(1)}`,
    `${threads} threads`,
  ].join(', ')
}

/** Sums of painel_http_requests_total by status, and painel_refusals_total by reason. */
function refusalsIn(metrics: string): Record<string, number> {
  const totals: Record<string, number> = {}
  for (const line of metrics.split('\n')) {
    const status = /^painel_http_requests_total\{.*status="(\d+)".*\} (\d+)/.exec(line)
    if (status && Number(status[1]) >= 400) {
      const key = `http ${status[1]}`
      totals[key] = (totals[key] ?? 0) + Number(status[2])
    }
    const refusal = /^painel_refusals_total\{(.*)\} (\d+)/.exec(line)
    if (refusal) totals[`refusals ${refusal[1]}`] = Number(refusal[2])
  }
  return totals
}

/** Seeds the engine's migrated store as the scale section does, then closes it for the server. */
async function seed(engine: Engine, location: { dataDir: string } | { postgresUrl: string }) {
  const startedAt = performance.now()
  const quiet = { info: () => {}, warn: () => {} }
  const database: Database =
    'postgresUrl' in location
      ? await openDatabase({ postgresUrl: location.postgresUrl })
      : await openEmbeddedStore(location.dataDir, quiet)
  try {
    const { passwordOnlyEmails } = await seedScale(database.db, engine, OVERLOAD_SIZE)
    return { passwordOnlyEmails, seconds: round((performance.now() - startedAt) / 1000, 1), engine }
  } finally {
    await database.close()
  }
}

async function measureEngine(
  build: BuildUnderTest,
  engine: Engine,
  postgres: ScratchPostgres | null,
  settings: OverloadSettings,
  log: (line: string) => void,
): Promise<EngineOverload> {
  const dataDir = makeTempDir('painel-bench-overload-')
  try {
    const postgresUrl = postgres ? await postgres.createDatabase('painel_overload') : null
    const seeded = await seed(engine, postgresUrl ? { postgresUrl } : { dataDir })
    log(`  ${engine}: seeded ${OVERLOAD_SIZE.label} in ${seeded.seconds} s`)
    const metricsPort = freePortSync()
    const logLines: string[] = []
    const server = spawnPainel(
      build,
      freePortSync(),
      dataDir,
      {
        ...(postgresUrl ? { DATABASE_URL: postgresUrl } : {}),
        // Sign-ins come from "many addresses": X-Forwarded-For, trusted from loopback only here.
        TRUST_PROXY: 'loopback',
        // The burst limit counts per address; high, so that it is not what answers the load.
        AUTH_RATE_LIMIT: '100000',
        METRICS_PORT: String(metricsPort),
      },
      (line) => logLines.push(line),
    )
    try {
      await waitForOk(server, '/readyz')
      const token = await signIn(server.baseURL)
      // One answer of each read first: "idle" is a server that has served, its code compiled.
      for (const path of ['/api/staff', '/api/audit']) {
        const response = await fetch(`${server.baseURL}${path}`, {
          headers: { authorization: `Bearer ${token}` },
        })
        if (response.status !== 200) throw new Error(`${path} answered ${response.status}`)
        await response.arrayBuffer()
      }
      const pid = server.child.pid ?? 0
      const idleHealthz = await probeHealth(server.baseURL, settings.idleSeconds)
      const idleRss = memoryOf(pid).rssMb
      const metricsText = async () =>
        (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text()
      const idleParts = memoryParts(pid, await metricsText())
      log(`  ${engine}: idle /healthz p99 ${idleHealthz.p99Ms} ms, RSS ${idleRss} MB`)

      const before = loadavg()
      const load: OverloadLoad = {
        baseURL: server.baseURL,
        connections: settings.connections,
        durationSeconds: settings.durationSeconds,
        token,
        signInEmails: seeded.passwordOnlyEmails,
        signInPassword: SEEDED_PASSWORD,
        wrongEvery: WRONG_EVERY,
      }
      const generator = spawnGenerator<OverloadOutcome>('overload-generator.ts', load, 'loading')
      await generator.started
      const serverBefore = cpuMs([pid])
      const startedAt = performance.now()
      const [loadHealthz, reads] = await Promise.all([
        probeHealth(server.baseURL, generator.outcome),
        probeReads(server.baseURL, token, generator.outcome),
      ])
      const outcome = await generator.outcome
      const wallMs = performance.now() - startedAt
      const serverAfter = cpuMs([pid])
      const after = loadavg()
      const afterSeries: number[] = []
      for (let waited = 0; waited < settings.afterSeconds; waited += 5) {
        await sleep(5000)
        afterSeries.push(memoryOf(pid).rssMb)
      }
      const memory = memoryOf(pid)
      const metricsAfter = await metricsText()
      const afterParts = memoryParts(pid, metricsAfter)
      const metricsRefusals = refusalsIn(metricsAfter)
      const serverLog = readLog(logLines)
      log(
        `  ${engine}: under load /healthz p99 ${loadHealthz.p99Ms} ms; RSS peak ${memory.peakMb} MB, ` +
          `after ${memory.rssMb} MB`,
      )
      return {
        engine,
        seed: {
          people: OVERLOAD_SIZE.people,
          events: OVERLOAD_SIZE.events,
          seconds: seeded.seconds,
        },
        healthz: { idle: idleHealthz, load: loadHealthz },
        load: outcome,
        reads,
        rssMb: { idle: idleRss, peak: memory.peakMb, after: memory.rssMb, afterSeries },
        memoryParts: { idle: idleParts, after: afterParts },
        metricsRefusals,
        log: serverLog,
        serverCpuPercent:
          serverBefore === null || serverAfter === null
            ? null
            : round(((serverAfter - serverBefore) / wallMs) * 100),
        generatorCpuPercent: round((outcome.cpuMs / wallMs) * 100),
        loadAverage: { before, after },
      }
    } finally {
      await stopChild(server.child)
    }
  } finally {
    removeTempDir(dataDir)
  }
}

export async function measureOverload(
  build: BuildUnderTest,
  settings: OverloadSettings,
  log: (line: string) => void,
): Promise<OverloadResult> {
  // OVERLOAD_ENGINES=postgres (or sqlite) measures one engine only: half the time, for a quick look.
  const engines = await forEachEngine('OVERLOAD_ENGINES', log, (engine, postgres) =>
    measureEngine(build, engine, postgres, settings, log),
  )
  return { ...settings, generatorNice: GENERATOR_NICE, engines }
}

/** The section's tables, one set per engine. */
export function printOverload(result: OverloadResult, log: (line: string) => void): void {
  for (const engine of result.engines) {
    log('')
    if ('skipped' in engine) {
      log(`${engine.engine}: skipped (${engine.skipped})`)
      continue
    }
    log(
      `${engine.engine}: ${result.connections} connections for ${result.durationSeconds} s, ` +
        `generator at nice ${result.generatorNice} (${engine.generatorCpuPercent}% of a core), ` +
        `server ${engine.serverCpuPercent ?? 'n/a'}% of a core; ${engine.seed.people} people, ` +
        `${engine.seed.events} events`,
    )
    const statuses = (answers: Record<string, number>) =>
      Object.entries(answers)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([status, count]) => `${status}×${count}`)
        .join(' ')
    const cell = (figures: LatencyFigures | undefined, at: 'p50Ms' | 'p99Ms') =>
      figures && figures.count > 0 ? `${figures[at]} ms` : '–'
    const rows = Object.entries(engine.load.answers).map(([route, answers]) => {
      const latency = engine.load.latency[route as keyof typeof engine.load.latency]
      return [
        `${route} (load)`,
        statuses(answers),
        cell(latency.served, 'p50Ms'),
        cell(latency.served, 'p99Ms'),
        `${cell(latency['503'], 'p50Ms')} / ${cell(latency['503'], 'p99Ms')}`,
      ]
    })
    for (const [route, probe] of Object.entries(engine.reads)) {
      rows.push([
        `${route} (reader)`,
        statuses(probe.answers),
        cell(probe.served, 'p50Ms'),
        cell(probe.served, 'p99Ms'),
        `${cell(probe.refused, 'p50Ms')} / ${cell(probe.refused, 'p99Ms')}`,
      ])
    }
    log(
      formatTable(
        ['route (who measured)', 'answers by status', 'served p50', 'served p99', '503 p50 / p99'],
        rows,
      ),
    )
    const delay = engine.load.ownDelay
    log(
      `(load: the generator's own times; its event loop ran late by p50 ${delay.p50Ms} ms, p99 ` +
        `${delay.p99Ms} ms, max ${delay.maxMs} ms, and its times include that. reader: one read of ` +
        `each every ${PROBE_READ_INTERVAL_MS} ms from the bench, at the server's priority)`,
    )
    const { idle, load } = engine.healthz
    log(
      `/healthz p99: idle ${idle.p99Ms} ms, under load ${load.p99Ms} ms (max ${load.maxMs} ms, ` +
        `${load.failed} of ${load.probes} not 200)`,
    )
    log(
      `RSS: idle ${engine.rssMb.idle} MB, peak ${engine.rssMb.peak} MB, ${result.afterSeconds} s after ` +
        `${engine.rssMb.after} MB (${(engine.rssMb.after / engine.rssMb.idle).toFixed(2)}× idle; ` +
        `every 5 s: ${engine.rssMb.afterSeries.join(', ')})`,
    )
    log(`  made of (MB), idle: ${engine.memoryParts.idle}`)
    log(`  made of (MB), after: ${engine.memoryParts.after}`)
    log(
      `the server's metrics: ${
        Object.entries(engine.metricsRefusals)
          .map(([key, count]) => `${key}: ${count}`)
          .join('; ') || 'no refusals'
      }; 503s without Retry-After: ${engine.load.unavailableWithoutRetryAfter}`,
    )
    const other = Object.entries(engine.log.other)
    log(
      `the server's log at warn: ${engine.log.refusalLines} line(s) counting ${engine.log.refusalsLogged} refusal(s)` +
        (other.length > 0
          ? `; other warnings: ${other.map(([message, count]) => `${count}× ${message}`).join('; ')}`
          : ''),
    )
    log(
      `load average ${engine.loadAverage.before.map((n) => n.toFixed(2)).join(' ')} before, ` +
        `${engine.loadAverage.after.map((n) => n.toFixed(2)).join(' ')} after`,
    )
  }
  log(
    "(goals: no 408; served reads p99 ≤ 1 s (the reader's); /healthz p99 ≤ 100 ms; RSS after ≤ 1.2× idle)",
  )
}
