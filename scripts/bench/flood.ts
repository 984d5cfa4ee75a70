/**
 * /healthz while the server sheds a sign-in flood. A liveness probe answered late gets a busy
 * but healthy server restarted, so /healthz must stay quick whatever the sign-ins do.
 *
 * The flood (flood-generator.ts) runs in a child process at the lowest priority (nice 19): on a
 * shared 2-core machine a generator at the server's priority takes a core, and a slow /healthz
 * would then say more about the machine than about the server. The bench process itself only
 * probes /healthz, one request every PROBE_INTERVAL_MS on one kept-alive connection, as an
 * orchestrator does; first with the server idle (the yardstick), then during the flood.
 */
import { loadavg } from 'node:os'
import { freePortSync } from '../free-port'
import { makeTempDir, removeTempDir, stopChild } from './cleanup'
import { cpuMs, schedStat } from './cpu'
import type { BuildUnderTest } from './dist-snapshot'
import type { FloodOutcome, FloodSettings } from './flood-generator'
import { GENERATOR_NICE, spawnGenerator } from './generator-process'
import { probeEvery } from './http-probe'
import { BENCH_ADMIN, spawnPainel, waitForOk } from './painel-server'
import { percentile, round } from './stats'

export const PROBE_INTERVAL_MS = 50
const PROBE_TIMEOUT_MS = 10_000

export interface FloodSettingsOfRun {
  connections: number
  idleSeconds: number
  floodSeconds: number
}

export const FLOOD_SETTINGS: FloodSettingsOfRun = {
  connections: 200,
  idleSeconds: 5,
  floodSeconds: 15,
}

export interface ProbeFigures {
  probes: number
  failed: number
  p50Ms: number
  p95Ms: number
  p99Ms: number
  maxMs: number
}

export interface FloodResult extends FloodSettingsOfRun {
  generatorNice: number
  idle: ProbeFigures
  flood: ProbeFigures
  /** The flood's answers as the generator counted them, by status. */
  signIns: FloodOutcome
  /** CPU time during the flood, as % of one core (null without /proc). */
  serverCpuPercent: number | null
  generatorCpuPercent: number
  /**
   * The server's event-loop thread during the flood: how long it ran and how long it waited for
   * a CPU while it could have run (null without /proc). A long wait is the machine's doing.
   */
  eventLoopThread: { runMs: number; runQueueWaitMs: number } | null
  loadAverage: { before: number[]; after: number[] }
}

function figures(latencies: readonly number[], failed: number): ProbeFigures {
  const sorted = [...latencies].sort((a, b) => a - b)
  return {
    probes: latencies.length + failed,
    failed,
    p50Ms: round(percentile(sorted, 0.5), 1),
    p95Ms: round(percentile(sorted, 0.95), 1),
    p99Ms: round(percentile(sorted, 0.99), 1),
    maxMs: round(sorted.at(-1) ?? 0, 1),
  }
}

/**
 * Probes /healthz until `until` resolves (or for `until` seconds), one request every
 * PROBE_INTERVAL_MS on one kept-alive connection; an answer other than 200 counts as failed.
 */
export async function probeHealth(
  baseURL: string,
  until: Promise<unknown> | number,
): Promise<ProbeFigures> {
  const latencies: number[] = []
  let failed = 0
  await probeEvery(
    `${baseURL}/healthz`,
    { intervalMs: PROBE_INTERVAL_MS, timeoutMs: PROBE_TIMEOUT_MS },
    until,
    ({ status, ms }) => {
      if (status === '200') latencies.push(ms)
      else failed += 1
    },
  )
  return figures(latencies, failed)
}

export async function measureFlood(
  build: BuildUnderTest,
  settings: FloodSettingsOfRun,
  log: (line: string) => void,
): Promise<FloodResult> {
  const dataDir = makeTempDir('painel-bench-flood-')
  const server = spawnPainel(build, freePortSync(), dataDir, {
    // The flood comes from "many addresses": X-Forwarded-For, trusted from loopback only here.
    TRUST_PROXY: 'loopback',
    // The burst limit counts per address; high, so that it is not what answers the flood.
    AUTH_RATE_LIMIT: '100000',
  })
  try {
    await waitForOk(server, '/readyz')
    log(`  Painel on ${server.baseURL}; /healthz probed every ${PROBE_INTERVAL_MS} ms`)
    const before = loadavg()
    const idle = await probeHealth(server.baseURL, settings.idleSeconds)
    log(`  idle: /healthz p99 ${idle.p99Ms} ms over ${idle.probes} probes`)

    const load: FloodSettings = {
      baseURL: server.baseURL,
      connections: settings.connections,
      durationSeconds: settings.floodSeconds,
      accountEmail: BENCH_ADMIN.email,
      accountEvery: 10,
    }
    const generator = spawnGenerator<FloodOutcome>('flood-generator.ts', load, 'flooding')
    // Loading tsx and autocannon takes a second or so: the probes count from the first request.
    await generator.started
    const serverPid = server.child.pid
    const serverBefore = serverPid === undefined ? null : cpuMs([serverPid])
    const loopBefore = serverPid === undefined ? null : schedStat(serverPid)
    const started = performance.now()
    const flood = await probeHealth(server.baseURL, generator.outcome)
    const signIns = await generator.outcome
    const wallMs = performance.now() - started
    const serverAfter = serverPid === undefined ? null : cpuMs([serverPid])
    const loopAfter = serverPid === undefined ? null : schedStat(serverPid)
    const serverMs =
      serverBefore === null || serverAfter === null ? null : serverAfter - serverBefore
    log(
      `  flood: /healthz p99 ${flood.p99Ms} ms over ${flood.probes} probes; ` +
        `${signIns.requests} sign-ins answered`,
    )
    return {
      ...settings,
      generatorNice: GENERATOR_NICE,
      idle,
      flood,
      signIns,
      serverCpuPercent: serverMs === null ? null : round((serverMs / wallMs) * 100),
      generatorCpuPercent: round((signIns.cpuMs / wallMs) * 100),
      eventLoopThread:
        loopBefore && loopAfter
          ? {
              runMs: Math.round((loopAfter.runNs - loopBefore.runNs) / 1e6),
              runQueueWaitMs: Math.round((loopAfter.waitNs - loopBefore.waitNs) / 1e6),
            }
          : null,
      loadAverage: { before, after: loadavg() },
    }
  } finally {
    await stopChild(server.child)
    removeTempDir(dataDir)
  }
}
