import assert from 'node:assert/strict'
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { chmod, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before } from 'node:test'
import { build } from 'esbuild'
import { serverOptions } from '../../scripts/build/esbuild-options'
import { freePortSync } from '../../scripts/free-port'
import { root } from '../../scripts/paths'
import { NEW_DATABASE_FILE, writeNewDatabase } from '../db/new-database'
import { createFixtureDist, type FixtureDist } from './fixture-dist'

/**
 * The compiled server as a process, started as the Dockerfile's CMD starts it
 * (`node dist/server/main.js`): locks, exit codes and kill -9 are only real there.
 */
export async function compiledServerDist(): Promise<FixtureDist> {
  const dist = await createFixtureDist()
  await symlink(join(root, 'node_modules'), join(dist.base, 'node_modules'), 'dir')
  await writeFile(join(dist.base, 'package.json'), JSON.stringify({ type: 'module' }))
  await build({ ...serverOptions(), outdir: join(dist.distDir, 'server'), logLevel: 'silent' })
  // As the build makes it: a first start copies it (db/new-database.ts).
  await writeNewDatabase(join(dist.distDir, 'server', NEW_DATABASE_FILE))
  // Readable by the unprivileged user some tests run the server as.
  await chmod(dist.base, 0o755)
  return dist
}

/**
 * For a test file of real processes: the compiled dist/ and an empty DATA_DIR, made before its
 * tests and removed after them. Read `dist` and `dataDir` inside tests (they are set by then).
 */
export function compiledServerFixture(name: string): { dist: FixtureDist; dataDir: string } {
  const fixture = { dist: undefined as unknown as FixtureDist, dataDir: '' }
  before(async () => {
    fixture.dist = await compiledServerDist()
    fixture.dataDir = await mkdtemp(join(tmpdir(), `painel-${name}-`))
  })
  after(async () => {
    await rm(fixture.dataDir, { recursive: true, force: true })
    await fixture.dist.cleanup()
  })
  return fixture
}

export interface ServerProcess {
  child: ChildProcess
  port: number
  url: string
  output: () => string
  /** Exit code, waiting for the exit if it has not happened yet. */
  exited: () => Promise<number | null>
}

export function startServer(
  dist: FixtureDist,
  env: Record<string, string>,
  options: { uid?: number; gid?: number } = {},
): ServerProcess {
  const port = freePortSync()
  const child = spawn(process.execPath, ['dist/server/main.js'], {
    cwd: dist.base,
    env: {
      PATH: process.env.PATH,
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...options,
  })
  let output = ''
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const exit = once(child, 'exit').then(([code]) => code as number | null)
  return { child, port, url: `http://127.0.0.1:${port}`, output: () => output, exited: () => exit }
}

/** Waits until the server answers 200 on /readyz. */
export async function ready(server: ServerProcess, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null) assert.fail(`the server exited: ${server.output()}`)
    try {
      if ((await fetch(`${server.url}/readyz`)).ok) return
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  assert.fail(`the server did not get ready: ${server.output()}`)
}

export async function stop(server: ServerProcess): Promise<number | null> {
  if (server.child.exitCode === null && server.child.signalCode === null)
    server.child.kill('SIGTERM')
  return server.exited()
}

/**
 * `loops` concurrent loops registering new people (`<prefix>-l<loop>-n<n>@example.com`) at
 * `server` until it is killed: `acknowledged` holds every e-mail answered 202, as the answers
 * come. Once the server is gone, `end()` waits for every loop to notice.
 */
export function registrationLoops(
  server: ServerProcess,
  loops: number,
  prefix: string,
): { acknowledged: string[]; end(): Promise<void> } {
  const acknowledged: string[] = []
  let ended = false
  const loop = async (id: number) => {
    for (let n = 0; !ended; n++) {
      const email = `${prefix}-l${id}-n${n}@example.com`
      try {
        const response = await fetch(`${server.url}/api/auth/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'Conta', email, password: 'senha-de-teste-1' }),
        })
        if (response.status === 202) acknowledged.push(email)
      } catch {
        return // the server is gone
      }
    }
  }
  const running = Array.from({ length: loops }, (_, id) => loop(id))
  return {
    acknowledged,
    async end() {
      ended = true
      await Promise.all(running)
    },
  }
}
