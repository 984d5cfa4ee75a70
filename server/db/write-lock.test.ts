import assert from 'node:assert/strict'
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { once } from 'node:events'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { ADMIN, apiFixture, errorOf, type ApiFixture } from '../test/api-fixture'
import { openDatabase } from './database'

/**
 * Another process holding the embedded database's write lock, as an operator's `sqlite3` does
 * inside a transaction: writes wait for it, are refused with 503 and Retry-After while it holds,
 * and go through once it lets go, without a restart; reads go on meanwhile (WAL). The lock is a
 * real sqlite3 process's BEGIN IMMEDIATE on the server's file.
 */

/** Long enough that a lock let go shortly after the request is waited for, not refused. */
const LOCK_WAIT_MS = 3000

let folder: string
let file: string
let api: ApiFixture
let adminToken: string
before(async () => {
  folder = await mkdtemp(join(tmpdir(), 'painel-write-lock-'))
  file = join(folder, 'painel.db')
  api = await apiFixture({
    database: await openDatabase({ sqliteFile: file }, { sqlite: { lockWaitMs: LOCK_WAIT_MS } }),
  })
  adminToken = await api.signIn(ADMIN.email, ADMIN.password)
})
after(async () => {
  await api.close()
  await rm(folder, { recursive: true, force: true })
})

/** sqlite3 on the file, inside BEGIN IMMEDIATE once this resolves; `release()` commits and quits. */
async function holdWriteLock(): Promise<{ release: () => Promise<void> }> {
  const holder: ChildProcessWithoutNullStreams = spawn('sqlite3', [file])
  let output = ''
  holder.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  holder.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  // sqlite3 waits for nobody unless told: a BEGIN IMMEDIATE met by the server's own write (the
  // mail sender's, a session's last use) failed, and the select after it still said "holding".
  holder.stdin.write(".timeout 10000\nbegin immediate;\nselect 'holding';\n")
  while (!output.includes('holding')) {
    if (holder.exitCode !== null) throw new Error(`sqlite3 ended: ${output}`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  assert.doesNotMatch(output, /error/i, 'sqlite3 holds the write lock')
  return {
    async release() {
      const exited = once(holder, 'exit')
      holder.stdin.end('commit;\n.quit\n')
      await exited
    },
  }
}

const rename = (name: string) => api.call('PATCH', '/api/me', adminToken, { name })

describe('another process holding the write lock (SQLite)', () => {
  it('refuses writes with 503 and Retry-After while it holds, keeps reading, and recovers when it lets go', async () => {
    const lock = await holdWriteLock()
    let refused
    try {
      refused = await rename('Durante a trava')
      // Reads need no lock: the list answers meanwhile.
      const list = await api.get('/api/staff', adminToken)
      assert.equal(list.statusCode, 200, list.body)
    } finally {
      await lock.release()
    }
    assert.equal(refused.statusCode, 503, refused.body)
    assert.equal(errorOf(refused).code, 'service_unavailable')
    assert.match(String(refused.headers['retry-after']), /^\d+$/)

    // No restart: the next write and the next transaction go through.
    const renamed = await rename('Depois da trava')
    assert.equal(renamed.statusCode, 200, renamed.body)
    const someone = await api.account('depois')
    const disabled = await api.call('PATCH', `/api/staff/${someone.id}`, adminToken, {
      status: 'disabled',
    })
    assert.equal(disabled.statusCode, 200, disabled.body)
  })

  it('lets a write wait for a lock let go soon enough, and answers it then', async () => {
    const lock = await holdWriteLock()
    let released = false
    const write = rename('Esperou a trava').then((answer) => ({ answer, released }))
    await new Promise((resolve) => setTimeout(resolve, 100))
    // Set as the commit is asked for: sqlite3 lets go of the lock before it exits, and the write
    // may be answered in between.
    released = true
    await lock.release()
    const { answer, released: wasReleased } = await write
    assert.equal(answer.statusCode, 200, answer.body)
    assert.ok(wasReleased, 'the write was answered only after the lock was let go')
    const me = await api.get('/api/auth/me', adminToken)
    assert.equal(me.json<{ user: { name: string } }>().user.name, 'Esperou a trava')
  })
})
