import assert from 'node:assert/strict'
import { execFileSync, spawn, spawnSync } from 'node:child_process'
import { once } from 'node:events'
import { readdirSync, readlinkSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import Libsql from 'libsql'
import {
  compiledServerDist,
  ready,
  registrationLoops,
  startServer,
  stop,
} from '../test/compiled-server'
import type { FixtureDist } from '../test/fixture-dist'

/**
 * A second process that opens the database read-write while the server runs (the documented
 * backup, or an operator's `sqlite3 painel.db`) right after a FIRST start, on an empty DATA_DIR.
 * The server's connection must then be what it is after a restart: attached to painel.db's own
 * shared-memory index, so the other process sees the server's WAL and neither checkpoints it away
 * nor deletes it. Real processes, real files, kill -9.
 */

const hasSqliteCli = spawnSync('sqlite3', ['-version']).status === 0

let dist: FixtureDist
let scratch: string
before(async () => {
  dist = await compiledServerDist()
  scratch = await mkdtemp(join(tmpdir(), 'painel-first-start-'))
})
after(async () => {
  await rm(scratch, { recursive: true, force: true })
  await dist.cleanup()
})

const env = (dataDir: string) => ({
  DATA_DIR: dataDir,
  ADMIN_PASSWORD: 'Admin-Pass-12345',
  AUTH_RATE_LIMIT: '100000',
})

const emailsIn = (file: string): Set<string> => {
  const db = new Libsql(file)
  try {
    return new Set(
      (db.prepare('select email from accounts').all() as { email: string }[]).map((r) => r.email),
    )
  } finally {
    db.close()
  }
}

/** The files of DATA_DIR that a process holds open, as /proc shows them. */
function openFilesUnder(pid: number, dataDir: string): string[] {
  return readdirSync(`/proc/${pid}/fd`)
    .map((fd) => {
      try {
        return readlinkSync(`/proc/${pid}/fd/${fd}`)
      } catch {
        return ''
      }
    })
    .filter((target) => target.startsWith(dataDir))
    .map((target) => target.slice(dataDir.length + 1))
    .sort()
}

async function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv) {
  const child = spawn(command, args, { cwd, env })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const [code] = (await once(child, 'exit')) as [number | null]
  return { code, output }
}

/**
 * Registers accounts from 8 loops while `middle` runs, between a stretch of writes before it
 * and one after it, then kill -9 and a restart: every acknowledged registration must be there.
 * Returns what was acknowledged before `middle` began.
 */
async function writesAroundThenKill(
  name: string,
  middle: (dataDir: string) => Promise<void>,
): Promise<{ acknowledgedBefore: string[]; dataDir: string }> {
  const dataDir = join(scratch, name)
  const server = startServer(dist, env(dataDir))
  after(() => stop(server))
  await ready(server)
  const registrations = registrationLoops(server, 8, name)
  const { acknowledged } = registrations
  const atLeast = async (count: number) => {
    const deadline = Date.now() + 60_000
    while (acknowledged.length < count && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    assert.ok(acknowledged.length >= count, `only ${acknowledged.length} registrations answered`)
  }
  await atLeast(10)
  const acknowledgedBefore = [...acknowledged]
  await middle(dataDir)
  await atLeast(acknowledged.length + 10)
  server.child.kill('SIGKILL')
  await server.exited()
  await registrations.end()

  const restarted = startServer(dist, env(dataDir))
  after(() => stop(restarted))
  await ready(restarted)
  assert.equal(await stop(restarted), 0)
  const present = emailsIn(join(dataDir, 'painel.db'))
  const lost = acknowledged.filter((email) => !present.has(email))
  assert.deepEqual(lost, [], `${lost.length} of ${acknowledged.length} acknowledged writes lost`)
  return { acknowledgedBefore, dataDir }
}

describe('the first start on an empty DATA_DIR', () => {
  it('leaves the server holding the same files open as a restart does (no index of the temporary file)', async () => {
    const dataDir = join(scratch, 'open-files')
    const first = startServer(dist, env(dataDir))
    after(() => stop(first))
    await ready(first)
    const afterFirstStart = openFilesUnder(first.child.pid!, dataDir)
    assert.equal(await stop(first), 0)
    const again = startServer(dist, env(dataDir))
    after(() => stop(again))
    await ready(again)
    const afterRestart = openFilesUnder(again.child.pid!, dataDir)
    assert.equal(await stop(again), 0)
    assert.deepEqual(afterFirstStart, afterRestart)
    assert.ok(
      afterFirstStart.every((file) => !file.includes('creating') && !file.includes('(deleted)')),
      afterFirstStart.join(', '),
    )
  })

  it('a backup taken during writes holds every write acknowledged before it, and kill -9 after it loses nothing', async () => {
    const backupFile = join(scratch, 'during-writes.db')
    const { acknowledgedBefore } = await writesAroundThenKill('backup', async (dataDir) => {
      const { code, output } = await run(
        process.execPath,
        ['dist/server/backup.js', backupFile],
        dist.base,
        { PATH: process.env.PATH, DATA_DIR: dataDir },
      )
      assert.equal(code, 0, output)
    })
    const inBackup = emailsIn(backupFile)
    const missing = acknowledgedBefore.filter((email) => !inBackup.has(email))
    assert.deepEqual(missing, [], `the backup lacks ${missing.length} earlier writes`)
  })

  it(
    "an operator's read-write sqlite3 in the middle of writes, then kill -9, loses nothing",
    { skip: hasSqliteCli ? false : 'no sqlite3 command (apt: sqlite3)' },
    async () => {
      await writesAroundThenKill('sqlite3-cli', async (dataDir) => {
        const count = execFileSync('sqlite3', [
          join(dataDir, 'painel.db'),
          'select count(*) from accounts;',
        ])
        assert.match(count.toString(), /^\d+\s*$/)
      })
    },
  )
})
