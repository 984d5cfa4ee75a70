/**
 * A load generator (flood-generator.ts, overload-generator.ts) as a child process at the lowest
 * priority there is: on a shared 2-core machine a generator at the server's priority takes a core,
 * and what the bench then measures says more about the machine than about the server. At nice 19
 * the generator gets what the server leaves.
 *
 * The generator takes one JSON argument, writes `startLine` on stdout as it is about to send its
 * first request, and its outcome as one JSON line last.
 */
import { setPriority } from 'node:os'
import { join } from 'node:path'
import { root } from '../paths'
import { spawnTracked } from './cleanup'

export const GENERATOR_NICE = 19

export interface GeneratorRun<Outcome> {
  /** Resolves when the generator is about to send its first request (or has exited). */
  started: Promise<void>
  outcome: Promise<Outcome>
}

/** Starts scripts/bench/`script` with `input`, niced before it has loaded anything. */
export function spawnGenerator<Outcome>(
  script: string,
  input: unknown,
  startLine: string,
): GeneratorRun<Outcome> {
  const child = spawnTracked(
    process.execPath,
    ['--import', 'tsx', join(root, 'scripts', 'bench', script), JSON.stringify(input)],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
  )
  // Lowered before it has loaded its HTTP client, let alone sent a request.
  if (child.pid !== undefined) setPriority(child.pid, GENERATOR_NICE)
  let stdout = ''
  let stderr = ''
  let markStarted = () => {}
  const started = new Promise<void>((resolve) => (markStarted = resolve))
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString()
    if (stdout.startsWith(`${startLine}\n`)) markStarted()
  })
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const outcome = new Promise<Outcome>((resolve, reject) => {
    child.once('error', reject)
    child.once('exit', (code) => {
      markStarted()
      const line = stdout.trim().split('\n').at(-1) ?? ''
      if (code === 0 && line.startsWith('{')) resolve(JSON.parse(line) as Outcome)
      else reject(new Error(`${script} exited ${code}: ${stderr.trim() || stdout}`))
    })
  })
  return { started, outcome }
}
