/**
 * Wall time of the production build. Each build runs in a new Node process, exactly the program
 * `npm run build` runs (tsx scripts/build.ts) without npm's own start-up, so no module or
 * esbuild cache of this process helps the next build. The build prints its own time too
 * ("built dist/ in N ms"); the difference is process start-up and loading the build's modules.
 */
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { root } from '../paths'
import { spawnTracked, stopChild } from './cleanup'
import { round, spread, type Spread } from './stats'

export interface BuildTimes {
  runs: number
  command: string
  /** Spawn to exit of the build process. */
  wallMs: Spread
  /** What the build reports itself: from cleaning dist/ to writing its report (buildInfoPath in scripts/paths.ts). */
  selfReportedMs: Spread | null
  samples: { wallMs: number; selfReportedMs: number | null }[]
}

const BUILD_TIMEOUT_MS = 5 * 60_000

/** One production build into dist/, in a new process; `args` go to scripts/build.ts. */
export async function oneBuild(
  args: readonly string[] = [],
): Promise<{ wallMs: number; selfReportedMs: number | null }> {
  const tsxCli = createRequire(import.meta.url).resolve('tsx/cli')
  const started = performance.now()
  const child = spawnTracked(process.execPath, [tsxCli, join('scripts', 'build.ts'), ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const timer = setTimeout(() => void stopChild(child), BUILD_TIMEOUT_MS)
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject)
    child.once('exit', (exitCode) => resolve(exitCode))
  }).finally(() => clearTimeout(timer))
  const wallMs = performance.now() - started
  if (code !== 0) throw new Error(`the build failed (exit ${code}):\n${output.slice(-4000)}`)
  const reported = /built dist\/ in (\d+) ms/.exec(output)
  return { wallMs: round(wallMs), selfReportedMs: reported ? Number(reported[1]) : null }
}

export async function measureBuilds(
  runs: number,
  log: (line: string) => void,
): Promise<BuildTimes> {
  const samples: BuildTimes['samples'] = []
  for (let run = 1; run <= runs; run++) {
    const sample = await oneBuild()
    log(`  build ${run}/${runs}: ${sample.wallMs} ms`)
    samples.push(sample)
  }
  const selfReported = samples.flatMap((sample) =>
    sample.selfReportedMs === null ? [] : [sample.selfReportedMs],
  )
  return {
    runs,
    command: 'node node_modules/tsx/dist/cli.mjs scripts/build.ts (what npm run build runs)',
    wallMs: spread(samples.map((sample) => sample.wallMs)),
    selfReportedMs: selfReported.length === samples.length ? spread(selfReported) : null,
    samples,
  }
}
