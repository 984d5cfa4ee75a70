import assert from 'node:assert/strict'
import { existsSync, readdirSync, statfsSync, statSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import Libsql from 'libsql'
import { createFixtureDist, type FixtureDist } from '../test/fixture-dist'
import { testApp } from '../test/helpers'
import { canMountDisk, fillDisk, mountSmallDisk, type SmallDisk } from '../test/small-disk'

/**
 * The embedded store on a disk that fills up while the server runs (a small tmpfs): readiness
 * says so, and nothing answers 500. Sign-in counts every try in the database before it checks
 * the password (accounts/sign-in-limits.ts), so while that count cannot be written no password is
 * checked at all: a 503 that says to come back, never a free guess. Needs root, for the mount.
 */

let dist: FixtureDist
let disk: SmallDisk | undefined
/** The disk's folder: the server's DATA_DIR. */
let dataDir: string
before(async () => {
  dist = await createFixtureDist()
  if (!canMountDisk) return
  // Room for the started store and then some: readiness wants 1 MiB free (MIN_FREE_BYTES in
  // db/embedded-store.ts), and on 2 MiB the store at start left 1.0 MB, just under it until its
  // WAL was folded in, so the first /readyz was 503 or 200 by timing. The test fills the rest.
  disk = await mountSmallDisk('outage', '4m')
  dataDir = disk.folder
})
after(async () => {
  await disk?.release()
  await dist.cleanup()
})

/**
 * Full again, with no slack: SQLite writes into room its WAL file already holds (a failed
 * write's frames, say) without asking the disk, so the WAL is emptied first (nothing committed
 * waits in it: a checkpoint only truncates it) and the filler then takes every free block.
 * The connection is this process's own, which shares the server's lock and index on the file.
 *
 * The server may write while the filler fills (work a request leaves for after its answer); a
 * write that ran out of room half-way leaves the WAL holding its frames' blocks, room the next
 * write takes without asking the disk. So the WAL is emptied and the disk filled again until
 * the WAL is still empty once the disk is full. (That alone did not end the failures whileFull
 * answers.)
 */
async function fullAgain(folder: string): Promise<string> {
  const wal = join(folder, 'painel.db-wal')
  for (let rounds = 1; ; rounds++) {
    const db = new Libsql(join(folder, 'painel.db'))
    try {
      // The server may be inside a transaction of its own just then (a transaction lets the
      // event loop turn between its statements: db/sqlite-dialect.ts), and the WAL is only
      // truncated once no transaction reads it: asked again until it is.
      for (let tries = 1; ; tries++) {
        const { busy } = db.prepare('pragma wal_checkpoint(TRUNCATE)').get() as { busy: number }
        if (busy === 0) break
        assert.ok(tries < 250, 'the WAL stayed in use for 5 s')
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
    } finally {
      db.close()
    }
    const filler = await fillDisk(folder)
    if (!existsSync(wal) || statSync(wal).size === 0) return filler
    assert.ok(rounds < 50, 'the server wrote to its WAL at every filling of the disk')
  }
}

/**
 * Runs `request` with the disk kept full: anything that makes room meanwhile has it taken at once
 * by the filler, on the thread pool, beside the server. In the whole suite, on a loaded machine,
 * room appeared during a request on the disk fullAgain had left full: a registration answered
 * 202, and once a correct password's sign-in 200, where 503 was expected (CI at stop 67 and at
 * 5d5e22c, and in one of five suite runs by hand, 2026-12-02; never in 66 runs of this file
 * alone). What made
 * it is not known; the message of an assertion below says what the disk held before and after.
 */
async function whileFull<T>(folder: string, request: () => Promise<T>): Promise<T> {
  let done = false
  const topUp = (async () => {
    while (!done) {
      await fillDisk(folder)
      await new Promise((resolve) => setImmediate(resolve))
    }
  })()
  try {
    return await request()
  } finally {
    done = true
    await topUp
  }
}

/** What the disk holds, for a failure's message: its free bytes, and each file's size and blocks. */
function diskState(folder: string): string {
  const files = readdirSync(folder).map((name) => {
    const { size, blocks } = statSync(join(folder, name))
    return `${name} ${size} B in ${blocks} blocks`
  })
  const { bavail, bsize } = statfsSync(folder)
  return `${bavail * bsize} B free; ${files.join(', ')}`
}

describe(
  'a full disk under the embedded store',
  { skip: canMountDisk ? false : 'needs root, for a tmpfs mount' },
  () => {
    it('/readyz is 503 while it is full; sign-in and registration answer 503, never 500, and work again once there is room', async () => {
      const { app } = await testApp(dist.distDir, {
        dataDir,
        databaseUrl: null,
        adminEmail: 'chefe@example.com',
        adminPassword: 'senha-do-chefe-1',
      })
      try {
        const login = (password: string) =>
          app.inject({
            method: 'POST',
            url: '/api/auth/login',
            payload: { email: 'chefe@example.com', password },
            remoteAddress: '198.51.100.9',
          })
        const ready = async (status: number, step: string) => {
          const answer = await app.inject({ url: '/readyz' })
          assert.equal(answer.statusCode, status, `/readyz ${step}: ${answer.body}`)
        }
        await ready(200, 'before the disk fills')

        const filler = await fillDisk(dataDir)
        await ready(503, 'on the full disk')
        for (const password of ['senha-errada-0', 'senha-do-chefe-1']) {
          await fullAgain(dataDir)
          const before = diskState(dataDir)
          const during = await whileFull(dataDir, () => login(password))
          assert.equal(
            during.statusCode,
            503,
            `${during.body}; before: ${before}; after: ${diskState(dataDir)}`,
          )
          assert.equal(during.json<{ error: { code: string } }>().error.code, 'service_unavailable')
        }
        // A write the server cannot keep is a 503 in the usual shape, never a 500 or a 202.
        await fullAgain(dataDir)
        const before = diskState(dataDir)
        const register = await whileFull(dataDir, () =>
          app.inject({
            method: 'POST',
            url: '/api/auth/register',
            payload: { name: 'Ana', email: 'ana@example.com', password: 'senha-da-ana-1' },
          }),
        )
        assert.equal(
          register.statusCode,
          503,
          `${register.body}; before: ${before}; after: ${diskState(dataDir)}`,
        )
        assert.equal(register.json<{ error: { code: string } }>().error.code, 'service_unavailable')

        await rm(filler)
        await ready(200, 'once there is room')
        const wrong = await login('senha-errada-1')
        assert.equal(wrong.statusCode, 401, wrong.body)
        const right = await login('senha-do-chefe-1')
        assert.equal(right.statusCode, 200, right.body)
      } finally {
        await app.close()
      }
    })
  },
)
