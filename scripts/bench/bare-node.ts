/**
 * The bare Node server (scripts/bench/bare-node-static.mjs) as a child process of the run, the
 * way nginx.ts runs nginx: started on a free port, waited for, stopped in the section's `finally`.
 */
import { fileURLToPath } from 'node:url'
import { freePortSync } from '../free-port'
import { hasExited, spawnTracked, stopChild } from './cleanup'
import { probe } from './http-probe'
import { sleep } from './stats'

export const BARE_NODE_SETUP =
  "bare Node: node:http alone, the same files from memory, nginx's headers (no security headers, " +
  'no request id, no hooks): the floor of any Node server'

const SCRIPT = fileURLToPath(new URL('bare-node-static.mjs', import.meta.url))

export interface RunningBareNode {
  baseURL: string
  pid: number | undefined
  stop: () => Promise<void>
}

export async function startBareNode(distDir: string): Promise<RunningBareNode> {
  const port = freePortSync()
  const child = spawnTracked(process.execPath, [SCRIPT, distDir], {
    env: { ...process.env, NODE_ENV: 'production', PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const baseURL = `http://127.0.0.1:${port}`
  const stop = async () => void (await stopChild(child, { graceMs: 5_000 }))
  const deadline = performance.now() + 10_000
  for (;;) {
    if (hasExited(child)) throw new Error(`the bare Node server exited at start: ${stderr}`)
    try {
      await probe(`${baseURL}/`, {}, 1_000)
      return { baseURL, pid: child.pid, stop }
    } catch {
      // not listening yet
    }
    if (performance.now() > deadline) {
      await stop()
      throw new Error(`the bare Node server did not answer on ${baseURL} within 10 s: ${stderr}`)
    }
    await sleep(20)
  }
}
