/**
 * `npx tsx scripts/bench/compare-starts.ts [--rounds N] [--first] <checkout> <checkout> ...`:
 * two or more builds of the server, each a checkout with its own built dist/ (a `git worktree` of
 * another commit, built there), started in turn round after round, each measured from inside its
 * process at the moment it listens (scripts/bench/listening-mark.mjs): medians of the restarts
 * (and with --first, of first starts on an empty DATA_DIR), and spawn to the first 200 on
 * /healthz beside them.
 *
 * What the start-up section's five rounds cannot tell: a change of 20 ms in a start of 500. Its
 * medians move 50-140 ms from one hour to the next here, as the machine does; alternated starts of
 * the same build measured at `listening` differ by a few ms (docs/performance-bench.md).
 */
import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { freePortSync } from '../free-port'
import type { BuildUnderTest } from './dist-snapshot'
import { hasExited, makeTempDir, removeTempDir, stopChild } from './cleanup'
import { probe } from './http-probe'
import { spawnPainel, waitForOk, type SpawnedPainel } from './painel-server'
import { median, sleep } from './stats'

const MARK = fileURLToPath(new URL('listening-mark.mjs', import.meta.url))
const MARK_LINE = /listening-mark ([\d.]+) ([\d.]+)/
const START_TIMEOUT_MS = 30_000

interface Start {
  /** From the process's start to `listening`, measured inside it. */
  listeningMs: number
  /** CPU the process had used by then. */
  cpuMs: number
  /** From the spawn to the first 200 on /healthz, measured here. */
  spawnTo200Ms: number
}

function checkoutBuild(checkout: string): BuildUnderTest {
  const root = resolve(checkout)
  const serverOut = join(root, 'dist', 'server', 'main.js')
  if (!existsSync(serverOut)) throw new Error(`${root} has no built server: npm run build there`)
  return {
    root,
    distDir: join(root, 'dist'),
    serverOut,
    metafilePath: join(root, 'dist', 'metafile.json'),
    builtAt: 'unknown',
    remove: () => {},
  }
}

async function start(build: BuildUnderTest, dataDir: string): Promise<Start> {
  // freePortSync starts a process of its own: not in the time measured.
  const port = freePortSync()
  const spawnedAt = performance.now()
  const server: SpawnedPainel = spawnPainel(build, port, dataDir, {
    NODE_OPTIONS: `--import=${MARK}`,
  })
  try {
    // The probe waits for the mark: polling from the first millisecond would take CPU from the
    // start it measures on a machine of two cores.
    for (;;) {
      const mark = MARK_LINE.exec(server.stderr())
      if (mark) {
        const { status } = await probe(`${server.baseURL}/healthz`, {}, START_TIMEOUT_MS)
        if (status !== 200) throw new Error(`${build.root}: /healthz answered ${status}`)
        const spawnTo200Ms = performance.now() - spawnedAt
        return { listeningMs: Number(mark[1]), cpuMs: Number(mark[2]), spawnTo200Ms }
      }
      if (hasExited(server.child) || performance.now() - spawnedAt > START_TIMEOUT_MS) {
        throw new Error(`${build.root}: no listening mark: ${server.stderr()}`)
      }
      await sleep(1)
    }
  } finally {
    await stopChild(server.child)
  }
}

function summary(starts: readonly Start[]): string {
  const of = (pick: (start: Start) => number) => median(starts.map(pick)).toFixed(1)
  return `listening ${of((s) => s.listeningMs)} ms (CPU ${of((s) => s.cpuMs)} ms), spawn to 200 ${of((s) => s.spawnTo200Ms)} ms`
}

async function main() {
  const { values, positionals } = parseArgs({
    options: { rounds: { type: 'string', default: '21' }, first: { type: 'boolean' } },
    allowPositionals: true,
  })
  const rounds = Number(values.rounds)
  if (positionals.length < 2 || !(rounds > 0)) {
    throw new Error('usage: compare-starts.ts [--rounds N] [--first] <checkout> <checkout> ...')
  }
  const builds = positionals.map(checkoutBuild)
  const restarts = builds.map(() => [] as Start[])
  const firstStarts = builds.map(() => [] as Start[])
  const dataDirs = builds.map(() => makeTempDir('painel-compare-'))
  try {
    // One start of each, not counted, makes the database its restarts open.
    for (const [at, build] of builds.entries()) {
      const setup = spawnPainel(build, freePortSync(), dataDirs[at]!)
      try {
        await waitForOk(setup, '/readyz')
      } finally {
        await stopChild(setup.child)
      }
    }
    for (let round = 0; round < rounds; round++) {
      // The first build of a round turns from round to round.
      for (let step = 0; step < builds.length; step++) {
        const at = (step + round) % builds.length
        restarts[at]!.push(await start(builds[at]!, dataDirs[at]!))
        if (values.first) {
          const empty = makeTempDir('painel-compare-first-')
          try {
            firstStarts[at]!.push(await start(builds[at]!, empty))
          } finally {
            removeTempDir(empty)
          }
        }
      }
      process.stderr.write(`\r  round ${round + 1}/${rounds}`)
    }
    process.stderr.write('\n')
    for (const [at, build] of builds.entries()) {
      console.log(`${build.root}, medians of ${rounds}:`)
      console.log(`  restart      ${summary(restarts[at]!)}`)
      if (values.first) console.log(`  first start  ${summary(firstStarts[at]!)}`)
    }
  } finally {
    for (const dir of dataDirs) removeTempDir(dir)
  }
}

await main()
