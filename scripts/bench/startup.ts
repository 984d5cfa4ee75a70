/**
 * Time from `spawn` of the compiled server to its first 200 on /healthz: on a fresh data folder
 * (the embedded SQLite database is created, migrations run, the first admin is made) and on one that
 * already exists (a restart). The server listens only after the database is open, so this is
 * the time a load balancer waits before the container takes traffic.
 *
 * Beside them, in the same rounds, the yardstick: an empty Fastify server with one route
 * (scripts/bench/empty-fastify.mjs), spawned the same way, timed the same way. The goals are
 * ratios to it (restart ≤ 1.3×, first start ≤ 1.8×; run.ts prints them), which hold on a slow machine as on a fast one.
 */
import type { ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { freePortSync } from '../free-port'
import type { BuildUnderTest } from './dist-snapshot'
import { makeTempDir, removeTempDir, spawnTracked, stopChild } from './cleanup'
import { cpuMs } from './cpu'
import { probe } from './http-probe'
import { PAINEL_LOG_LEVEL, spawnPainel, waitForOk } from './painel-server'
import { round, sleep, spread, type Spread } from './stats'

export interface StartupResult {
  runs: number
  logLevel: string
  firstStartMs: Spread
  restartMs: Spread
  /**
   * CPU time (user + system) the server had used at that first 200: what the start costs,
   * steadier than the wall time on a shared machine, where waiting for a core adds to the latter.
   */
  firstStartCpuMs: Spread | null
  restartCpuMs: Spread | null
  /** The yardstick's spawn to first 200, one run in each round beside a first start and a restart. */
  emptyFastifyMs: Spread
  emptyFastifyCpuMs: Spread | null
  /** Medians over the yardstick's median: the figures the goals are set on. */
  ratios: { firstStart: number; restart: number }
  samples: {
    firstStartMs: number[]
    restartMs: number[]
    firstStartCpuMs: number[]
    restartCpuMs: number[]
    emptyFastifyMs: number[]
  }
}

const EMPTY_FASTIFY = fileURLToPath(new URL('empty-fastify.mjs', import.meta.url))

interface Timing {
  wallMs: number
  cpuMs: number | null
}

const START_TIMEOUT_MS = 60_000
// Short, so the figure is not rounded up by the polling; a refused connection costs next to nothing.
const POLL_MS = 5

interface Started {
  child: ChildProcess
  baseURL: string
  stderr: () => string
}

function spawnEmptyFastify(port: number): Started {
  const child = spawnTracked(process.execPath, [EMPTY_FASTIFY], {
    env: { ...process.env, NODE_ENV: 'production', PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  return { child, baseURL: `http://127.0.0.1:${port}`, stderr: () => stderr }
}

async function timeToHealthy(spawnServer: (port: number) => Started): Promise<Timing> {
  const port = freePortSync()
  const started = performance.now()
  const server = spawnServer(port)
  try {
    const deadline = started + START_TIMEOUT_MS
    for (;;) {
      if (server.child.exitCode !== null || server.child.signalCode !== null) {
        throw new Error(`the server exited during start-up: ${server.stderr()}`)
      }
      try {
        if ((await probe(`${server.baseURL}/healthz`, {}, 2_000)).status === 200) {
          const wallMs = round(performance.now() - started)
          const cpu = server.child.pid === undefined ? null : cpuMs([server.child.pid])
          return { wallMs, cpuMs: cpu }
        }
      } catch {
        // not listening yet
      }
      if (performance.now() > deadline)
        throw new Error(`no 200 on /healthz within ${START_TIMEOUT_MS} ms`)
      await sleep(POLL_MS)
    }
  } finally {
    await stopChild(server.child)
  }
}

export async function measureStartup(
  build: BuildUnderTest,
  runs: number,
  log: (line: string) => void,
): Promise<StartupResult> {
  const firstStartMs: number[] = []
  const restartMs: number[] = []
  const firstStartCpuMs: number[] = []
  const restartCpuMs: number[] = []
  const emptyFastifyMs: number[] = []
  const emptyFastifyCpuMs: number[] = []
  const record = (timing: Timing, wall: number[], cpu: number[]) => {
    wall.push(timing.wallMs)
    if (timing.cpuMs !== null) cpu.push(timing.cpuMs)
  }
  const existing = makeTempDir('painel-bench-restart-')
  try {
    // One start that is not counted creates the database; every later one is a restart.
    const setup = spawnPainel(build, freePortSync(), existing)
    try {
      await waitForOk(setup, '/readyz')
    } finally {
      await stopChild(setup.child)
    }
    const firstStart = async () => {
      const dataDir = makeTempDir('painel-bench-start-')
      try {
        record(
          await timeToHealthy((port) => spawnPainel(build, port, dataDir)),
          firstStartMs,
          firstStartCpuMs,
        )
      } finally {
        removeTempDir(dataDir)
      }
    }
    const restart = async () =>
      record(
        await timeToHealthy((port) => spawnPainel(build, port, existing)),
        restartMs,
        restartCpuMs,
      )
    const yardstick = async () =>
      record(await timeToHealthy(spawnEmptyFastify), emptyFastifyMs, emptyFastifyCpuMs)
    // Each round starts all three, the first of them turning from round to round: a ratio then
    // divides figures of the same seconds of the machine. Measured five first starts and then five
    // restarts, the first starts were divided by a yardstick timed after them all.
    const kinds = [firstStart, restart, yardstick]
    for (let run = 1; run <= runs; run++) {
      for (let at = 0; at < kinds.length; at++) await kinds[(at + run - 1) % kinds.length]!()
      log(
        `  round ${run}/${runs}: first start ${firstStartMs.at(-1)} ms (CPU ${firstStartCpuMs.at(-1)} ms); ` +
          `restart ${restartMs.at(-1)} ms (CPU ${restartCpuMs.at(-1)} ms); ` +
          `empty Fastify ${emptyFastifyMs.at(-1)} ms (CPU ${emptyFastifyCpuMs.at(-1)} ms)`,
      )
    }
  } finally {
    removeTempDir(existing)
  }

  return {
    runs,
    logLevel: PAINEL_LOG_LEVEL,
    firstStartMs: spread(firstStartMs),
    restartMs: spread(restartMs),
    firstStartCpuMs: firstStartCpuMs.length === runs ? spread(firstStartCpuMs) : null,
    restartCpuMs: restartCpuMs.length === runs ? spread(restartCpuMs) : null,
    emptyFastifyMs: spread(emptyFastifyMs),
    emptyFastifyCpuMs: emptyFastifyCpuMs.length === runs ? spread(emptyFastifyCpuMs) : null,
    ratios: {
      firstStart: round(spread(firstStartMs).median / spread(emptyFastifyMs).median, 2),
      restart: round(spread(restartMs).median / spread(emptyFastifyMs).median, 2),
    },
    samples: { firstStartMs, restartMs, firstStartCpuMs, restartCpuMs, emptyFastifyMs },
  }
}
