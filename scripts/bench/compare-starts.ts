/**
 * `npx tsx scripts/bench/compare-starts.ts [--rounds N] [--first] <checkout> <checkout> ...`:
 * two or more builds of the server, each a checkout with its own built dist/ (a `git worktree` of
 * another commit, built there), started in turn round after round, each measured from inside its
 * process at the moment it listens (scripts/bench/listening-mark.mjs): medians of the restarts
 * (and with --first, of first starts on an empty DATA_DIR), and spawn to the first 200 on
 * /healthz beside them.
 *
 * What the start-up section's rounds cannot tell: a change of 20 ms in a start of 500. Its medians
 * move 50-140 ms from one hour to the next here, as the machine does; alternated starts of the
 * same build measured at `listening` differ by less than 10 ms (docs/performance-bench.md).
 */
import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { freePortSync } from '../free-port'
import type { BuildUnderTest } from './dist-snapshot'
import { cleanUpEverything, makeTempDir, removeTempDir, stopChild } from './cleanup'
import { probe } from './http-probe'
import { spawnPainel, waitForOk, type SpawnedPainel } from './painel-server'
import { median } from './stats'

const MARK = new URL('listening-mark.mjs', import.meta.url).href
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

/** The mark's line, once the server writes it on stderr; rejects if it exits or takes too long. */
function listeningMark(server: SpawnedPainel): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => settle(new Error('no listening mark in time')), START_TIMEOUT_MS)
    const onData = () => {
      const mark = MARK_LINE.exec(server.stderr())
      if (mark) settle(null, mark)
    }
    const onExit = () => settle(new Error('the server exited before it listened'))
    const settle = (error: Error | null, mark?: RegExpExecArray) => {
      clearTimeout(timer)
      server.child.stderr?.off('data', onData)
      server.child.off('exit', onExit)
      if (mark) resolve(mark)
      else reject(new Error(`${error?.message ?? ''}: ${server.stderr()}`))
    }
    // Listened for after spawnPainel's own listener, which collects what stderr() returns.
    server.child.stderr?.on('data', onData)
    server.child.once('exit', onExit)
  })
}

async function start(build: BuildUnderTest, dataDir: string): Promise<Start> {
  // freePortSync starts a process of its own: not in the time measured.
  const port = freePortSync()
  const spawnedAt = performance.now()
  const server = spawnPainel(build, port, dataDir, {
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import="${MARK}"`.trim(),
  })
  try {
    // The probe waits for the mark: polling from the first millisecond would take CPU from the
    // start it measures on a machine of two cores.
    const mark = await listeningMark(server)
    const { status } = await probe(`${server.baseURL}/healthz`, {}, START_TIMEOUT_MS)
    if (status !== 200) throw new Error(`${build.root}: /healthz answered ${status}`)
    const spawnTo200Ms = performance.now() - spawnedAt
    return { listeningMs: Number(mark[1]), cpuMs: Number(mark[2]), spawnTo200Ms }
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
  if (positionals.length < 2 || !Number.isInteger(rounds) || rounds < 1) {
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
      console.log(`${at + 1}. ${build.root}, medians of ${rounds}:`)
      console.log(`  restart      ${summary(restarts[at]!)}`)
      if (values.first) console.log(`  first start  ${summary(firstStarts[at]!)}`)
    }
  } finally {
    for (const dir of dataDirs) removeTempDir(dir)
  }
}

process.on('exit', cleanUpEverything)
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => process.exit(130))
}

await main()
