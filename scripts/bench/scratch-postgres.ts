/**
 * A PostgreSQL cluster of the bench's own: initdb in a temporary folder, the server on a free
 * loopback port, stopped and removed at the end. Debian's binaries (/usr/lib/postgresql/<n>/bin,
 * the newest there, or PG_BIN); nothing of the machine's own clusters is touched. initdb refuses
 * to run as root, so as root the cluster belongs to the `postgres` user (setpriv), with the
 * folder made for it; as anyone else it is that user's.
 */
import { execFileSync } from 'node:child_process'
import { chownSync, existsSync, readdirSync } from 'node:fs'
import { userInfo } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import type { Engine } from '../../server/db/portable-sql'
import { openSqlite } from '../../server/db/sqlite-database'
import { freePortSync } from '../free-port'
import { makeTempDir, removeTempDir, spawnTracked, stopChild } from './cleanup'
import { sleep } from './stats'

export interface ScratchPostgres {
  /** postgres://… of a database on the cluster, made on demand. */
  createDatabase(name: string): Promise<string>
  dropDatabase(name: string): Promise<void>
  version: string
  stop(): Promise<void>
}

const BIN_ROOT = '/usr/lib/postgresql'
const USER = 'painel_bench'

function binDir(): string | null {
  if (process.env.PG_BIN) return process.env.PG_BIN
  if (!existsSync(BIN_ROOT)) return null
  const versions = readdirSync(BIN_ROOT)
    .filter((name) => /^\d+$/.test(name) && existsSync(join(BIN_ROOT, name, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a))
  return versions[0] ? join(BIN_ROOT, versions[0], 'bin') : null
}

/** Why there is no PostgreSQL to measure, or null when there is one. */
export function postgresUnavailable(): string | null {
  const bin = binDir()
  if (!bin)
    return `no PostgreSQL binaries under ${BIN_ROOT} (apt-get install postgresql, or set PG_BIN)`
  if (userInfo().uid === 0) {
    try {
      execFileSync('id', ['postgres'], { stdio: 'ignore' })
    } catch {
      return 'running as root and there is no postgres user to own the cluster'
    }
  }
  return null
}

export async function startScratchPostgres(): Promise<ScratchPostgres> {
  const bin = binDir()
  if (!bin) throw new Error(postgresUnavailable() ?? 'no PostgreSQL')
  const asRoot = userInfo().uid === 0
  const folder = makeTempDir('painel-bench-pg-')
  const dataDir = join(folder, 'data')
  if (asRoot) {
    const owner = execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim()
    const group = execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim()
    chownSync(folder, Number(owner), Number(group))
  }
  // As the postgres user when root (setpriv execs the command itself, so the server's pid is the
  // child's and a signal reaches it); the command as it is otherwise.
  const as = (command: string, args: string[]): [string, string[]] =>
    asRoot
      ? ['setpriv', ['--reuid=postgres', '--regid=postgres', '--init-groups', command, ...args]]
      : [command, args]

  execFileSync(
    ...as(join(bin, 'initdb'), [
      '-D',
      dataDir,
      '-U',
      USER,
      '-A',
      'trust',
      '-E',
      'UTF8',
      '--locale=C.UTF-8',
      '--no-sync',
    ]),
    { stdio: 'ignore' },
  )
  const port = freePortSync()
  const [command, args] = as(join(bin, 'postgres'), [
    '-D',
    dataDir,
    '-p',
    String(port),
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    `unix_socket_directories=${folder}`,
    // The same settings a packaged cluster starts with otherwise: the measurement is of the
    // queries on a default server, not of a tuned one.
  ])
  const server = spawnTracked(command, args, { stdio: ['ignore', 'ignore', 'pipe'] })
  let log = ''
  server.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()))
  const adminUrl = `postgres://${USER}@127.0.0.1:${port}/postgres`
  const deadline = performance.now() + 30_000
  for (;;) {
    const client = new pg.Client({ connectionString: adminUrl })
    try {
      await client.connect()
      await client.end()
      break
    } catch {
      await client.end().catch(() => {})
      if (server.exitCode !== null || performance.now() > deadline) {
        await stopChild(server)
        removeTempDir(folder)
        throw new Error(`the scratch PostgreSQL did not start: ${log}`)
      }
      await sleep(100)
    }
  }
  const admin = async <T>(use: (client: pg.Client) => Promise<T>): Promise<T> => {
    const client = new pg.Client({ connectionString: adminUrl })
    await client.connect()
    try {
      return await use(client)
    } finally {
      await client.end()
    }
  }
  const version = await admin(
    async (client) =>
      (await client.query<{ server_version: string }>('show server_version')).rows[0]!
        .server_version,
  )
  return {
    version,
    async createDatabase(name) {
      await admin((client) => client.query(`create database ${name}`))
      return `postgres://${USER}@127.0.0.1:${port}/${name}`
    },
    async dropDatabase(name) {
      await admin((client) => client.query(`drop database if exists ${name} with (force)`))
    },
    async stop() {
      // SIGINT: PostgreSQL's "fast" shutdown (ends the sessions, no waiting for clients).
      await stopChild(server, { signal: 'SIGINT', graceMs: 30_000 })
      removeTempDir(folder)
    },
  }
}

/** The engine as the sections print it: "PostgreSQL 15.10", "SQLite 3.45.1 (libsql)". */
export function engineVersion(postgres: ScratchPostgres | null): string {
  if (postgres) return `PostgreSQL ${postgres.version}`
  const sqlite = openSqlite(':memory:')
  try {
    const { v } = sqlite.raw.prepare('select sqlite_version() as v').get() as { v: string }
    return `SQLite ${v} (libsql)`
  } finally {
    sqlite.close()
  }
}

export interface SkippedEngine {
  engine: Engine
  skipped: string
}

/**
 * Runs `run` on SQLite, then on PostgreSQL (`postgres`: a scratch cluster started for it and
 * stopped after), or on the engines the environment variable `envVar` names (SCALE_ENGINES=postgres:
 * that one only). Where PostgreSQL cannot be started here, it is skipped with the reason.
 */
export async function forEachEngine<Result>(
  envVar: string,
  log: (line: string) => void,
  run: (engine: Engine, postgres: ScratchPostgres | null) => Promise<Result>,
): Promise<(Result | SkippedEngine)[]> {
  const chosen = process.env[envVar]?.split(',').map((name) => name.trim())
  const results: (Result | SkippedEngine)[] = []
  for (const engine of ['sqlite', 'postgres'] as const) {
    if (chosen && !chosen.includes(engine)) continue
    const missing = engine === 'postgres' ? postgresUnavailable() : null
    if (missing) {
      results.push({ engine, skipped: missing })
      log(`  postgres: skipped (${missing})`)
      continue
    }
    const postgres = engine === 'postgres' ? await startScratchPostgres() : null
    try {
      results.push(await run(engine, postgres))
    } finally {
      await postgres?.stop()
    }
  }
  return results
}
