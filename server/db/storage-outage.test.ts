import assert from 'node:assert/strict'
import { existsSync, statSync } from 'node:fs'
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
 * In the whole suite the registration below answered 202 on the "full" disk twice (CI, and one
 * of four runs by hand, 2026-12-02), and never in 66 runs of this file alone. The likeliest way:
 * the server wrote while the filler filled (work a request leaves for after its answer), ran out
 * of room half-way, and left the WAL holding its frames' blocks, room the next write takes
 * without asking the disk. So the WAL is emptied and the disk filled again until the WAL is
 * still empty once the disk is full.
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
          const during = await login(password)
          assert.equal(during.statusCode, 503, during.body)
          assert.equal(during.json<{ error: { code: string } }>().error.code, 'service_unavailable')
        }
        // A write the server cannot keep is a 503 in the usual shape, never a 500 or a 202.
        await fullAgain(dataDir)
        const register = await app.inject({
          method: 'POST',
          url: '/api/auth/register',
          payload: { name: 'Ana', email: 'ana@example.com', password: 'senha-da-ana-1' },
        })
        assert.equal(register.statusCode, 503, register.body)
        assert.equal(register.json<{ error: { code: string } }>().error.code, 'service_unavailable')

        await rm(filler)
        assert.equal((await app.inject({ url: '/readyz' })).statusCode, 200)
        assert.equal((await login('senha-errada-1')).statusCode, 401)
        assert.equal((await login('senha-do-chefe-1')).statusCode, 200)
      } finally {
        await app.close()
      }
    })
  },
)
