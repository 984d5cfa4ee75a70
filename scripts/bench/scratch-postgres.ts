/**
 * A PostgreSQL server of the bench's own, for the sections that measure the panel on PostgreSQL:
 * a new cluster (initdb) in a temporary folder, on a free loopback port, stopped and removed at
 * the end. Nothing else on the machine (a PostgreSQL on 5432, other engineers' databases) is
 * touched or measured.
 *
 * The postgres server refuses to run as root, so when the bench runs as root the cluster belongs
 * to the `postgres` user (its programs are spawned with that user's uid and gid: the child is
 * postgres itself, which a signal from the bench stops); otherwise to whoever runs the bench.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { chownSync, existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { freePortSync } from '../free-port'
import { hasExited, makeTempDir, removeTempDir, spawnTracked, stopChild } from './cleanup'
import { sleep } from './stats'

export interface ScratchPostgres {
  url: string
  pid: number | undefined
  stop: () => Promise<void>
}

/** The newest PostgreSQL of Debian's layout (/usr/lib/postgresql/<major>/bin), or PG_BIN. */
export function findPostgresBin(): string | null {
  if (process.env.PG_BIN) return process.env.PG_BIN
  const base = '/usr/lib/postgresql'
  if (!existsSync(base)) return null
  const majors = readdirSync(base)
    .filter((name) => /^\d+$/.test(name) && existsSync(join(base, name, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a))
  return majors[0] ? join(base, majors[0], 'bin') : null
}

/** The cluster's owner: `postgres` when the bench runs as root, else the bench's own user. */
function owner(): { uid: number; gid: number } | Record<string, never> {
  if (process.getuid?.() !== 0) return {}
  const id = (flag: string) =>
    Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim())
  return { uid: id('-u'), gid: id('-g') }
}

const DATABASE = 'painel_bench'
const USER = 'painel_bench'

export async function startScratchPostgres(
  settings: { maxConnections?: number } = {},
): Promise<ScratchPostgres> {
  const bin = findPostgresBin()
  if (!bin) throw new Error('no PostgreSQL found (/usr/lib/postgresql/<major>/bin, or set PG_BIN)')
  const dir = makeTempDir('painel-bench-pg-')
  const dataDir = join(dir, 'data')
  const user = owner()
  if ('uid' in user) chownSync(dir, user.uid, user.gid)
  const init = spawnSync(
    join(bin, 'initdb'),
    [
      '-D',
      dataDir,
      '-U',
      USER,
      '--auth=trust',
      '--encoding=UTF8',
      '--locale=C.UTF-8',
      // A scratch cluster: its files need not reach the disk before the bench goes on.
      '--no-sync',
    ],
    { ...user, encoding: 'utf8', timeout: 120_000 },
  )
  if (init.status !== 0) {
    removeTempDir(dir)
    throw new Error(`initdb failed: ${init.stderr || init.stdout}`)
  }
  const port = freePortSync()
  const args = [
    '-D',
    dataDir,
    '-p',
    String(port),
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    `unix_socket_directories=${dir}`,
    '-c',
    `max_connections=${settings.maxConnections ?? 100}`,
    // As a production server has it: commits are on disk (the panel's own settings are measured).
    '-c',
    'fsync=on',
  ]
  const child = spawnTracked(join(bin, 'postgres'), args, {
    ...user,
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const stop = async () => {
    // SIGINT: PostgreSQL's "fast" shutdown (ends the sessions, then stops).
    await stopChild(child, { signal: 'SIGINT', graceMs: 15_000 })
    removeTempDir(dir)
  }
  const adminUrl = `postgres://${USER}@127.0.0.1:${port}/postgres`
  try {
    const { default: pg } = await import('pg')
    const deadline = performance.now() + 30_000
    for (;;) {
      if (hasExited(child)) throw new Error(`postgres exited: ${stderr}`)
      const client = new pg.Client({ connectionString: adminUrl })
      try {
        await client.connect()
        await client.query(`create database ${DATABASE}`)
        await client.end()
        break
      } catch (error) {
        await client.end().catch(() => {})
        if (performance.now() > deadline) throw error
        await sleep(100)
      }
    }
  } catch (error) {
    await stop()
    throw error
  }
  return { url: `postgres://${USER}@127.0.0.1:${port}/${DATABASE}`, pid: child.pid, stop }
}
