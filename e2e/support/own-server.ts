import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { join } from 'node:path'
import { freePortSync } from '../../scripts/free-port'
import { root } from '../../scripts/paths'
import { e2e } from './test-env'

export interface OwnServer {
  baseURL: string
  stop: () => Promise<number | null>
}

/**
 * A server of the test's own (for tests that must stop and start it): the compiled server,
 * started the way the container starts it, on a free port, with the settings given
 * (MFA_REQUIRED is off unless given).
 */
export async function startOwnServer(
  env: Record<string, string>,
  /** A port chosen beforehand: a provider must know the server's callback address. */
  port = freePortSync(),
): Promise<OwnServer> {
  // localhost, like the shared server (test-env.ts): passkeys need a host name.
  const baseURL = `http://localhost:${port}`
  const child: ChildProcess = spawn(process.execPath, [join(root, 'dist', 'server', 'main.js')], {
    cwd: root,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: baseURL,
      LOG_LEVEL: 'warn',
      // As on the shared server (playwright.config.ts); a suite that tests it sets its own.
      MFA_REQUIRED: 'off',
      QUEUE_WAIT_MS: String(e2e.queueWaitMs),
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const deadline = Date.now() + 30_000
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`the server exited with ${child.exitCode}: ${stderr}`)
    try {
      if ((await fetch(`${baseURL}/readyz`)).ok) break
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`the server did not get ready: ${stderr}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return {
    baseURL,
    async stop() {
      if (child.exitCode !== null) return child.exitCode
      child.kill('SIGTERM')
      const [code] = (await once(child, 'exit')) as [number | null]
      return code
    },
  }
}
