/**
 * Everything the benchmarks start (servers, nginx, builds) and every temporary folder they make,
 * tracked so that nothing is left behind: each section stops its own in a `finally`, and the
 * exit hook in run.ts catches whatever an interrupted or timed-out section could not.
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const children = new Set<ChildProcess>()
const tempDirs = new Set<string>()

export function spawnTracked(
  command: string,
  args: readonly string[],
  options: SpawnOptions,
): ChildProcess {
  const child = spawn(command, args, options)
  children.add(child)
  child.once('exit', () => children.delete(child))
  // A spawn failure (ENOENT) is reported as an 'error' event; unhandled, it would crash the run.
  child.once('error', () => children.delete(child))
  return child
}

export function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null
}

/** Asks a child to stop, and forces it after `graceMs`: a stuck server must not hang the run. */
export async function stopChild(
  child: ChildProcess,
  { signal = 'SIGTERM', graceMs = 10_000 }: { signal?: NodeJS.Signals; graceMs?: number } = {},
): Promise<number | null> {
  if (hasExited(child) || child.pid === undefined) return child.exitCode
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>
  child.kill(signal)
  const force = setTimeout(() => child.kill('SIGKILL'), graceMs)
  try {
    const [code] = await exited
    return code
  } finally {
    clearTimeout(force)
  }
}

export function makeTempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  tempDirs.add(dir)
  return dir
}

export function removeTempDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true })
  tempDirs.delete(dir)
}

/**
 * Last resort, synchronous (it runs in process.on('exit')). SIGTERM rather than SIGKILL: nginx's
 * master stops its worker on SIGTERM, while a killed master would leave the worker serving.
 */
export function cleanUpEverything(): void {
  for (const child of children) {
    if (!hasExited(child)) child.kill('SIGTERM')
  }
  for (const dir of tempDirs) {
    try {
      rmSync(dir, { recursive: true, force: true })
    } catch {
      // a server may still be writing there as it stops; the OS cleans tmp eventually
    }
  }
  tempDirs.clear()
}
