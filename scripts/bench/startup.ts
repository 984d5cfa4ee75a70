/**
 * Time from `spawn` of the compiled server to its first 200 on /healthz: on a fresh data folder
 * (the embedded SQLite database is created, migrations run, the first admin is made) and on one that
 * already exists (a restart). The server listens only after the database is open, so this is
 * the time a load balancer waits before the container takes traffic.
 */
import { freePortSync } from '../free-port'
import type { BuildUnderTest } from './dist-snapshot'
import { makeTempDir, removeTempDir, stopChild } from './cleanup'
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
  samples: {
    firstStartMs: number[]
    restartMs: number[]
    firstStartCpuMs: number[]
    restartCpuMs: number[]
  }
}

interface Timing {
  wallMs: number
  cpuMs: number | null
}

const START_TIMEOUT_MS = 60_000
// Short, so the figure is not rounded up by the polling; a refused connection costs next to nothing.
const POLL_MS = 5

async function timeToHealthy(build: BuildUnderTest, dataDir: string): Promise<Timing> {
  const port = freePortSync()
  const started = performance.now()
  const server = spawnPainel(build, port, dataDir)
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
  const record = (timing: Timing, wall: number[], cpu: number[]) => {
    wall.push(timing.wallMs)
    if (timing.cpuMs !== null) cpu.push(timing.cpuMs)
  }
  for (let run = 1; run <= runs; run++) {
    const dataDir = makeTempDir('painel-bench-start-')
    try {
      record(await timeToHealthy(build, dataDir), firstStartMs, firstStartCpuMs)
    } finally {
      removeTempDir(dataDir)
    }
    log(
      `  first start ${run}/${runs}: ${firstStartMs.at(-1)} ms (CPU ${firstStartCpuMs.at(-1)} ms)`,
    )
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
    for (let run = 1; run <= runs; run++) {
      record(await timeToHealthy(build, existing), restartMs, restartCpuMs)
      log(`  restart ${run}/${runs}: ${restartMs.at(-1)} ms (CPU ${restartCpuMs.at(-1)} ms)`)
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
    samples: { firstStartMs, restartMs, firstStartCpuMs, restartCpuMs },
  }
}
