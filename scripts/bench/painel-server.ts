/**
 * The compiled Painel server, started the way the container starts it (`node dist/server/main.js`)
 * on loopback, with LOG_LEVEL=warn: at info it writes a log line per request, and the benchmarks
 * measure serving, not logging.
 */
import type { ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { freePortSync } from '../free-port'
import type { BuildUnderTest } from './dist-snapshot'
import { hasExited, makeTempDir, removeTempDir, spawnTracked, stopChild } from './cleanup'
import { probe } from './http-probe'
import { round, sleep } from './stats'

export const PAINEL_LOG_LEVEL = 'warn'

/** The first admin the server creates in a fresh data folder; the sections sign in as it. */
export const BENCH_ADMIN = {
  email: 'bench-admin@painel.test',
  password: `bench-${randomBytes(9).toString('base64url')}`,
}

/**
 * Settings of the user's shell that would change what is measured (an external database, an API
 * upstream, HTTPS headers, a mail server) are left out: every figure is for the embedded setup.
 */
const IGNORED_ENV = [
  'DATABASE_URL',
  'API_UPSTREAM',
  'SMTP_URL',
  'HTTPS',
  'TRUST_PROXY',
  'PUBLIC_URL',
  'SESSION_TTL',
  'AUTH_RATE_LIMIT',
]

function painelEnv(
  port: number,
  dataDir: string,
  extra: NodeJS.ProcessEnv = {},
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env }
  for (const name of IGNORED_ENV) delete env[name]
  return {
    ...env,
    // As the container's environment has it.
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    LOG_LEVEL: PAINEL_LOG_LEVEL,
    DATA_DIR: dataDir,
    ADMIN_EMAIL: BENCH_ADMIN.email,
    ADMIN_PASSWORD: BENCH_ADMIN.password,
    // The routes measured are the admin's dashboard, not the second-factor setup it would get.
    MFA_REQUIRED: 'off',
    ...extra,
  }
}

export interface SpawnedPainel {
  child: ChildProcess
  baseURL: string
  stderr: () => string
}

/** Spawns the server and returns at once (the start-up section times what follows). */
export function spawnPainel(
  build: BuildUnderTest,
  port: number,
  dataDir: string,
  extraEnv: NodeJS.ProcessEnv = {},
  /** Where the server's log lines go (at warn); without it nobody reads them. */
  onLogLine?: (line: string) => void,
): SpawnedPainel {
  const child = spawnTracked(process.execPath, [build.serverOut], {
    cwd: build.root,
    env: painelEnv(port, dataDir, extraEnv),
    // Logs at warn are a line or two; unread, stdout must not fill a pipe either.
    stdio: ['ignore', onLogLine ? 'pipe' : 'ignore', 'pipe'],
  })
  if (onLogLine && child.stdout) {
    let partial = ''
    child.stdout.on('data', (chunk: Buffer) => {
      const lines = (partial + chunk.toString()).split('\n')
      partial = lines.pop() ?? ''
      for (const line of lines) if (line) onLogLine(line)
    })
  }
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  return { child, baseURL: `http://127.0.0.1:${port}`, stderr: () => stderr }
}

/** Polls `path` until it answers 200; throws if the server exits or `timeoutMs` passes. */
export async function waitForOk(
  server: SpawnedPainel,
  path: string,
  { timeoutMs = 60_000, intervalMs = 50, name = 'the Painel server' } = {},
): Promise<void> {
  const deadline = performance.now() + timeoutMs
  for (;;) {
    if (hasExited(server.child)) {
      throw new Error(
        `${name} exited (${server.child.exitCode ?? server.child.signalCode}): ${server.stderr()}`,
      )
    }
    try {
      if ((await probe(`${server.baseURL}${path}`, {}, 2_000)).status === 200) return
    } catch {
      // not listening yet
    }
    if (performance.now() > deadline) {
      throw new Error(`${name} did not answer ${path} within ${timeoutMs} ms`)
    }
    await sleep(intervalMs)
  }
}

/**
 * Signs an account in with its password on a running server (BENCH_ADMIN unless told): the
 * session's bearer token. Throws with the answer when there is none.
 */
export async function signIn(
  baseURL: string,
  account: { email: string; password: string } = BENCH_ADMIN,
): Promise<string> {
  const response = await fetch(`${baseURL}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: account.email, password: account.password }),
    signal: AbortSignal.timeout(10_000),
  })
  const text = await response.text()
  const token = response.status === 200 ? (JSON.parse(text) as { token?: string }).token : undefined
  if (!token) throw new Error(`signing in as ${account.email} failed: ${response.status} ${text}`)
  return token
}

/** VmRSS and VmHWM (the peak) of a process, in MB, from /proc (Linux). */
export function memoryOf(pid: number): { rssMb: number; peakMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1])
  return { rssMb: round(kb('VmRSS') / 1024, 1), peakMb: round(kb('VmHWM') / 1024, 1) }
}

export interface PainelServer {
  baseURL: string
  pid: number | undefined
  stop: () => Promise<void>
}

/** A running server with a fresh data folder, ready (/readyz) before it is returned. */
export async function startPainel(
  build: BuildUnderTest,
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<PainelServer> {
  const dataDir = makeTempDir('painel-bench-data-')
  const server = spawnPainel(build, freePortSync(), dataDir, extraEnv)
  const stop = async () => {
    await stopChild(server.child)
    removeTempDir(dataDir)
  }
  try {
    await waitForOk(server, '/readyz')
  } catch (error) {
    await stop()
    throw error
  }
  return { baseURL: server.baseURL, pid: server.child.pid, stop }
}
