/**
 * The bare Node server (scripts/bench/bare-node-static.mjs) as a child process of the run, the
 * way nginx.ts runs nginx: started on a free port, waited for, stopped in the section's `finally`.
 */
import { fileURLToPath } from 'node:url'
import { freePortSync } from '../free-port'
import { spawnTracked, stopChild } from './cleanup'
import { waitForOk } from './painel-server'

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
  try {
    await waitForOk({ child, baseURL, stderr: () => stderr }, '/', {
      timeoutMs: 10_000,
      intervalMs: 20,
      name: 'the bare Node server',
    })
  } catch (error) {
    await stop()
    throw error
  }
  return { baseURL, pid: child.pid, stop }
}
