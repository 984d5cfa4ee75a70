import assert from 'node:assert/strict'
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import { Kysely, sql } from 'kysely'
import { forgetDeletedBytes } from './forget-deleted-bytes'
import { EmbeddedDialect } from './sqlite-dialect'
import { openSqlite } from './sqlite-database'
import {
  CHECKPOINT_AT_WAL_BYTES,
  CHECKPOINT_REPEAT_MS,
  CHECKPOINTER_IDLE_MS,
  FAILURE_PAUSE_MS,
  FALLBACK_AUTOCHECKPOINT_PAGES,
  WalCheckpointer,
} from './wal-checkpointer'

/**
 * The server's connection leaves its checkpoints to a thread (wal-checkpointer.ts): SQLite's own
 * automatic checkpoint, at the COMMIT that takes the WAL past 1000 pages, copied the pages into
 * the file and waited for the disk on the event loop's thread.
 */
const dir = mkdtempSync(join(tmpdir(), 'painel-checkpointer-'))
after(() => rmSync(dir, { recursive: true, force: true }))

let files = 0
const warnings: string[] = []
const log = { warn: (message: string) => void warnings.push(message) }

/** A database in a file of its own, on the server's options, with a checkpointer as given. */
function open(make: (file: string) => WalCheckpointer) {
  const file = join(dir, `db-${++files}.db`)
  const checkpointer = make(file)
  const db = new Kysely<{ t: { blob: Uint8Array } }>({
    dialect: new EmbeddedDialect(openSqlite(file, { checkpointer: log }), 5000, checkpointer),
  })
  return { file, checkpointer, db }
}

/** The checkpointer's timing, shortened where a test says. */
const timing = (changes: Partial<WalCheckpointer['timing']> = {}) => ({
  atWalBytes: CHECKPOINT_AT_WAL_BYTES,
  delayMs: 20,
  idleMs: CHECKPOINTER_IDLE_MS,
  repeatMs: CHECKPOINT_REPEAT_MS,
  failurePauseMs: FAILURE_PAUSE_MS,
  ...changes,
})

const size = (file: string) => (existsSync(file) ? statSync(file).size : 0)

/** About 2,000 pages of 4 KiB in one commit: past SQLite's 1000, short of the backstop. */
const writeManyPages = (db: Kysely<{ t: { blob: Uint8Array } }>) =>
  sql`insert into t (blob) select randomblob(3000)
    from (with recursive n(i) as (select 1 union all select i + 1 from n where i < 2000) select i from n)`.execute(
    db,
  )

async function until(condition: () => boolean, what: string) {
  for (let waited = 0; !condition(); waited += 10) {
    if (waited > 10_000) assert.fail(`never: ${what}`)
    await sleep(10)
  }
}

describe('the checkpoints of the embedded database', () => {
  it('are not made at the COMMIT, on the event loop, but soon after on their thread', async () => {
    assert.ok(2000 < FALLBACK_AUTOCHECKPOINT_PAGES && 2000 * 4096 > CHECKPOINT_AT_WAL_BYTES)
    const { file, checkpointer, db } = open((file) => new WalCheckpointer(file, log, timing()))
    try {
      await sql`create table t (blob blob)`.execute(db)
      const before = size(file)
      await writeManyPages(db)
      // Right after the COMMIT the pages are in the WAL only: SQLite's own checkpoint at that
      // COMMIT would have grown the file by them already.
      assert.equal(size(file), before)
      assert.ok(size(`${file}-wal`) > 2000 * 4096)
      await until(() => checkpointer.done >= 1, 'a checkpoint on the thread')
      assert.ok(size(file) > before + 2000 * 3000, `${size(file)} bytes`)
      // Every page copied, the WAL was emptied: its size is again what is written after.
      assert.equal(size(`${file}-wal`), 0)
    } finally {
      await db.destroy()
    }
    assert.equal(checkpointer.running, false)
  })

  it('makes the checkpoint the commits asked for only while no query or transaction has the connection', async () => {
    const { file, checkpointer, db } = open((file) => new WalCheckpointer(file, log, timing()))
    try {
      await sql`create table t (blob blob)`.execute(db)
      await writeManyPages(db)
      // The commit asked for a checkpoint within 20 ms. Held by a request's turn (a transaction,
      // a query), the connection is not given to it: its COMMITs would meet the checkpoint's fsync.
      await db.connection().execute(async (held) => {
        await until(() => checkpointer.running, 'the thread started, without the connection')
        await sleep(500)
        assert.equal(checkpointer.done, 0, 'a checkpoint while the connection was held')
        assert.ok(size(`${file}-wal`) > 2000 * 4096)
        await sql`insert into t (blob) values (randomblob(10))`.execute(held)
      })
      await until(() => checkpointer.done >= 1, 'the checkpoint, once the connection is free')
      assert.equal(size(`${file}-wal`), 0)
    } finally {
      await db.destroy()
    }
  })

  it('makes none while the WAL is small, and one for a burst of commits that fills it', async () => {
    // The burst crosses 256 KiB at about its 13th commit; the three after it come well within the
    // second the checkpoint waits, however slow the disk.
    const { checkpointer, db } = open(
      (file) => new WalCheckpointer(file, log, timing({ atWalBytes: 256 * 1024, delayMs: 1000 })),
    )
    try {
      await sql`create table t (blob blob)`.execute(db)
      for (let n = 0; n < 20; n++)
        await sql`insert into t (blob) values (randomblob(10))`.execute(db)
      await sleep(300)
      assert.equal(checkpointer.done, 0)
      assert.equal(checkpointer.running, false)
      for (let n = 0; n < 16; n++)
        await sql`insert into t (blob) values (randomblob(20000))`.execute(db)
      await until(() => checkpointer.done >= 1, 'a checkpoint on the thread')
      await sleep(300)
      assert.equal(checkpointer.done, 1)
    } finally {
      await db.destroy()
    }
  })

  it('makes an anonymisation’s TRUNCATE checkpoint on its thread, and the WAL is emptied', async () => {
    const { file, checkpointer, db } = open(
      (file) => new WalCheckpointer(file, log, timing({ delayMs: 60_000 })),
    )
    try {
      await sql`create table t (blob blob)`.execute(db)
      await writeManyPages(db)
      assert.equal(await forgetDeletedBytes(db as never), 'done')
      assert.equal(checkpointer.done, 1)
      assert.equal(size(`${file}-wal`), 0)
    } finally {
      await db.destroy()
    }
  })

  it('ends the thread once idle, and starts it again when needed', async () => {
    const { checkpointer, db } = open(
      (file) => new WalCheckpointer(file, log, timing({ atWalBytes: 1, idleMs: 50 })),
    )
    try {
      await sql`create table t (blob blob)`.execute(db)
      await until(() => checkpointer.done >= 1, 'a checkpoint on the thread')
      await until(() => !checkpointer.running, 'the thread ended')
      await sql`insert into t (blob) values (randomblob(10))`.execute(db)
      await until(() => checkpointer.done >= 2, 'a checkpoint on a new thread')
    } finally {
      await db.destroy()
    }
  })

  it('makes the TRUNCATE checkpoint on the connection when the thread cannot open the file, and starts no thread for a while after', async () => {
    const { file, checkpointer, db } = open(
      () => new WalCheckpointer(join(dir, 'no-such-folder', 'x.db'), log, timing()),
    )
    try {
      await sql`create table t (blob blob)`.execute(db)
      await writeManyPages(db)
      assert.equal(await forgetDeletedBytes(db as never), 'done')
      assert.equal(size(`${file}-wal`), 0)
      await writeManyPages(db)
      assert.equal(await forgetDeletedBytes(db as never), 'done')
      assert.equal(size(`${file}-wal`), 0)
      // One thread tried: the second checkpoint, and the commits' checkpoints, waited for none.
      assert.equal(checkpointer.started, 1)
      assert.equal(checkpointer.running, false)
    } finally {
      await db.destroy()
    }
  })

  it('answers an anonymisation’s TRUNCATE at once when another process holds the write lock, without holding the server’s queries until it lets go', async () => {
    const { file, db } = open((file) => new WalCheckpointer(file, log, timing({ delayMs: 60_000 })))
    // An operator's sqlite3 in a write transaction (a backup's snapshot holds the WAL the same way).
    const operator = openSqlite(file)
    try {
      await sql`create table t (blob blob)`.execute(db)
      await writeManyPages(db)
      operator.raw.exec('begin immediate')
      const order: string[] = []
      const answer = forgetDeletedBytes(db as never).then((outcome) => {
        order.push(`answered ${outcome}`)
      })
      // The operator lets go once the answer came, or after 4 s: a checkpoint that waits for the
      // lock (as it did, 5 s) is answered only after that, and then done.
      await Promise.race([answer, sleep(4000)])
      operator.raw.exec('commit')
      order.push('let go')
      await answer
      assert.deepEqual(order, ['answered busy', 'let go'])
      // The next checkpoint finishes the job.
      assert.equal(await forgetDeletedBytes(db as never), 'done')
    } finally {
      if (operator.isOpen) operator.close()
      await db.destroy()
    }
  })

  it('after a checkpoint that could not empty the WAL, waits before the next however many commits ask', async () => {
    const { file, checkpointer, db } = open(
      (file) => new WalCheckpointer(file, log, timing({ atWalBytes: 1, repeatMs: 60_000 })),
    )
    const reader = openSqlite(file)
    try {
      await sql`create table t (blob blob)`.execute(db)
      // A reader's snapshot: the WAL cannot be emptied while it stands.
      reader.raw.exec('begin')
      reader.raw.prepare('select count(*) from t').get()
      await sql`insert into t (blob) values (randomblob(10))`.execute(db)
      await until(() => checkpointer.done >= 1, 'a checkpoint on the thread')
      for (let n = 0; n < 10; n++)
        await sql`insert into t (blob) values (randomblob(10))`.execute(db)
      await sleep(500)
      assert.equal(checkpointer.done, 1)
    } finally {
      if (reader.isOpen) reader.close()
      await db.destroy()
    }
  })

  it('starts no thread for a checkpoint asked after the database was closed', async () => {
    const { checkpointer, db } = open((file) => new WalCheckpointer(file, log, timing()))
    await sql`create table t (blob blob)`.execute(db)
    await db.destroy()
    await assert.rejects(checkpointer.checkpoint('TRUNCATE'))
    assert.equal(checkpointer.running, false)
    assert.equal(checkpointer.started, 0)
  })
})
