/**
 * A bench's helper as a child process: a load generator (flood-generator.ts,
 * overload-generator.ts), or a probe that must not share the bench's event loop
 * (health-probe-process.ts).
 *
 * A generator runs at the lowest priority there is: on a shared 2-core machine a generator at the
 * server's priority takes a core, and what the bench then measures says more about the machine
 * than about the server. At nice 19 the generator gets what the server leaves. A probe keeps the
 * server's priority: what it times is what a person would wait.
 *
 * The child takes one JSON argument, writes `startLine` on stdout once it is under way, and its
 * outcome as one JSON line last. One that runs until told (a probe) ends when its stdin closes.
 */
import { setPriority } from 'node:os'
import { join } from 'node:path'
import { root } from '../paths'
import { spawnTracked } from './cleanup'

export const GENERATOR_NICE = 19

export interface GeneratorRun<Outcome> {
  /** Resolves when the child is under way (or has exited). */
  started: Promise<void>
  outcome: Promise<Outcome>
  /** Closes the child's stdin: a child that runs until told ends. */
  endInput(): void
}

/** Starts scripts/bench/`script` with `input`; `niced`: before it has loaded anything. */
export function spawnBenchProcess<Outcome>(
  script: string,
  input: unknown,
  startLine: string,
  { niced }: { niced: boolean },
): GeneratorRun<Outcome> {
  const child = spawnTracked(
    process.execPath,
    ['--import', 'tsx', join(root, 'scripts', 'bench', script), JSON.stringify(input)],
    { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] },
  )
  // Lowered before it has loaded its HTTP client, let alone sent a request.
  if (niced && child.pid !== undefined) setPriority(child.pid, GENERATOR_NICE)
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
  return { started, outcome, endInput: () => child.stdin?.end() }
}

/** A load generator: scripts/bench/`script` with `input`, at nice 19. */
export function spawnGenerator<Outcome>(
  script: string,
  input: unknown,
  startLine: string,
): GeneratorRun<Outcome> {
  return spawnBenchProcess(script, input, startLine, { niced: true })
}
