import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import { Kysely, sql } from 'kysely'
import { deleteInBatches, inBatches, runBatch } from './batched-delete'
import type { Db } from './database'
import { EmbeddedDialect, stepRunner } from './sqlite-dialect'
import { openSqlite } from './sqlite-database'
import { storageProblem, StorageUnavailableError } from './storage-failure'
import { canMountDisk, fillDisk, mountSmallDisk } from '../test/small-disk'
import {
  CHECKPOINT_AT_WAL_BYTES,
  CHECKPOINT_DELAY_MS,
  CHECKPOINT_REPEAT_MS,
  CHECKPOINTER_IDLE_MS,
  FAILURE_PAUSE_MS,
  StepFailed,
  WalCheckpointer,
} from './wal-checkpointer'

/**
 * A long write's steps on the database's thread (stepRunner in sqlite-dialect.ts): a team's
 * people moved out a hundred at a time (roles/team-store.ts) waited for the disk at each COMMIT
 * on the event loop, and longest while a checkpoint's fsync ran (wal-checkpointer.ts).
 */
const dir = mkdtempSync(join(tmpdir(), 'painel-thread-steps-'))
after(() => rmSync(dir, { recursive: true, force: true }))

interface Tables {
  people: { id: number; team: string | null }
}

let files = 0
const log = { warn: () => {} }

/** A file of 350 people in team 'a', with a thread's connection to `threadFile` (the same file unless a test says). */
async function open(
  options: { lockWaitMs?: number; threadFile?: (file: string) => string; folder?: string } = {},
) {
  const file = join(options.folder ?? dir, `db-${++files}.db`)
  const checkpointer = new WalCheckpointer(options.threadFile?.(file) ?? file, log, {
    atWalBytes: CHECKPOINT_AT_WAL_BYTES,
    delayMs: CHECKPOINT_DELAY_MS,
    idleMs: CHECKPOINTER_IDLE_MS,
    repeatMs: CHECKPOINT_REPEAT_MS,
    failurePauseMs: FAILURE_PAUSE_MS,
  })
  const db = new Kysely<Tables>({
    dialect: new EmbeddedDialect(
      openSqlite(file, { checkpointer: log }),
      options.lockWaitMs ?? 5000,
      checkpointer,
    ),
  })
  await sql`create table people (id integer primary key, team text)`.execute(db)
  await sql`create index people_team on people (team)`.execute(db)
  await sql`insert into people (team)
    select 'a' from (with recursive n(i) as (select 1 union all select i + 1 from n where i < 350) select i from n)`.execute(
    db,
  )
  const runStep = stepRunner(db)
  assert.ok(runStep, 'a connection with a thread runs steps there')
  /** Takes up to `limit` people out of team 'a', as a step. */
  const moveSome = (limit: number) =>
    runStep(
      db
        .updateTable('people')
        .set({ team: null })
        .where('id', 'in', (eb) =>
          eb.selectFrom('people').select('id').where('team', '=', 'a').limit(limit),
        )
        .compile(),
    )
  const left = async () =>
    Number(
      (
        await db
          .selectFrom('people')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('team', '=', 'a')
          .executeTakeFirstOrThrow()
      ).n,
    )
  return { file, checkpointer, db, moveSome, left }
}

describe('a long write’s steps on the database’s thread', () => {
  it('run there, each committed, and the server’s connection sees them', async () => {
    const { checkpointer, db, moveSome, left } = await open()
    try {
      assert.equal(await inBatches(moveSome), 350)
      assert.equal(await left(), 0)
      // 100, 100, 100 and 50: four steps, all on the thread.
      assert.equal(checkpointer.stepsDone, 4)
      assert.equal(checkpointer.started, 1)
    } finally {
      await db.destroy()
    }
  })

  it('a prune’s batches after its first run there too (deleteInBatches, runBatch)', async () => {
    const { checkpointer, db } = await open()
    const prune = (team: string) =>
      deleteInBatches(db as unknown as Db, (limit) =>
        db
          .deleteFrom('people')
          .where(
            'id',
            'in',
            db.selectFrom('people').select('id').where('team', '=', team).limit(limit),
          ),
      )
    try {
      // Nothing to remove, as in most rounds of housekeeping: one statement, no thread started.
      await prune('z')
      assert.equal(checkpointer.running, false)
      await prune('a')
      const { n } = await db
        .selectFrom('people')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
      assert.equal(Number(n), 0)
      // 100 on the connection, then 100, 100 and 50 on the thread.
      assert.equal(checkpointer.stepsDone, 3)
      // Inside a transaction, which holds the connection, a batch runs there, not on the thread.
      await sql`insert into people (team) values ('b')`.execute(db)
      await db.transaction().execute(async (trx) => {
        const batch = trx.deleteFrom('people').where('team', '=', 'b')
        assert.equal(await runBatch(trx as unknown as Db, batch), 1)
      })
      assert.equal(checkpointer.stepsDone, 3)
    } finally {
      await db.destroy()
    }
  })

  it('a step whose statement fails fails with SQLite’s code, commits nothing, and the thread goes on', async () => {
    const { checkpointer, db, moveSome, left } = await open()
    try {
      await sql`create trigger fails before update of team on people
        when (select count(*) from people where team = 'a') <= 250
        begin select raise(abort, 'refused'); end`.execute(db)
      assert.equal(await moveSome(100), 100)
      const failure = await moveSome(100).catch((error: unknown) => error)
      assert.ok(failure instanceof StepFailed, String(failure))
      assert.match(String(failure.code), /^SQLITE_CONSTRAINT/)
      assert.equal(await left(), 250)
      await sql`drop trigger fails`.execute(db)
      assert.equal(await inBatches(moveSome), 250)
      assert.equal(checkpointer.started, 1)
    } finally {
      await db.destroy()
    }
  })

  it(
    'a full disk on the thread is a storage failure (503), as on the server’s connection',
    { skip: canMountDisk ? false : 'needs root, for a tmpfs mount' },
    async () => {
      const disk = await mountSmallDisk('steps', '4m')
      try {
        const { checkpointer, db, moveSome, left } = await open({ folder: disk.folder })
        try {
          assert.equal(await moveSome(100), 100)
          // The WAL emptied first: SQLite writes into room its file already holds.
          await sql`pragma wal_checkpoint(TRUNCATE)`.execute(db)
          const filler = await fillDisk(disk.folder)
          const failure = await moveSome(100).catch((error: unknown) => error)
          assert.ok(failure instanceof StorageUnavailableError, String(failure))
          assert.equal(failure.problem, 'no-space')
          assert.equal(checkpointer.stepsDone, 1)
          await rm(filler)
          assert.equal(await left(), 250)
          assert.equal(await moveSome(100), 100)
          assert.equal(checkpointer.stepsDone, 2)
        } finally {
          await db.destroy()
        }
      } finally {
        await disk.release()
      }
    },
  )

  it('inside db.connection(), run on the connection the caller holds, without waiting for it', async () => {
    const { checkpointer, db } = await open()
    try {
      const moved = db
        .connection()
        .execute((connection) =>
          runBatch(
            connection as unknown as Db,
            connection
              .updateTable('people')
              .set({ team: null })
              .where('id', 'in', connection.selectFrom('people').select('id').limit(100)),
          ),
        )
      const hung = sleep(10_000).then(() => 'hung')
      assert.equal(await Promise.race([moved, hung]), 100)
      assert.equal(checkpointer.stepsDone, 1)
    } finally {
      await db.destroy()
    }
  })

  it('do not keep the server’s connection while the thread starts', async () => {
    const { checkpointer, db, moveSome } = await open()
    try {
      assert.equal(checkpointer.running, false)
      const order: string[] = []
      const step = moveSome(100).then(() => order.push('step'))
      const read = db
        .selectFrom('people')
        .select('id')
        .limit(1)
        .execute()
        .then(() => order.push('read'))
      await Promise.all([step, read])
      assert.deepEqual(order, ['read', 'step'])
      assert.equal(checkpointer.stepsDone, 1)
    } finally {
      await db.destroy()
    }
  })

  it('wait while another process holds the write lock, the loop free, and go on once it lets go', async () => {
    const { file, checkpointer, db, moveSome, left } = await open()
    const operator = openSqlite(file)
    try {
      operator.raw.exec('begin immediate')
      let stepped = false
      const step = moveSome(100).then((changes) => {
        stepped = true
        return changes
      })
      // The server's own reads go on meanwhile: the connection is free between the step's tries.
      for (let n = 0; n < 5; n++) {
        await sleep(20)
        assert.equal(await left(), 350)
      }
      assert.equal(stepped, false)
      operator.raw.exec('commit')
      assert.equal(await step, 100)
      assert.equal(await left(), 250)
      assert.equal(checkpointer.stepsDone, 1, 'made on the thread')
    } finally {
      if (operator.isOpen) operator.close()
      await db.destroy()
    }
  })

  it('past the lock wait, fail with a 503 and Retry-After, having changed nothing', async () => {
    const { file, db, moveSome, left } = await open({ lockWaitMs: 200 })
    const operator = openSqlite(file)
    try {
      operator.raw.exec('begin immediate')
      const failure = await moveSome(100).catch((error: unknown) => error)
      assert.equal(storageProblem(failure), 'busy')
      assert.equal((failure as { retryAfterSeconds?: number }).retryAfterSeconds, 5)
      operator.raw.exec('commit')
      assert.equal(await left(), 350)
    } finally {
      if (operator.isOpen) operator.close()
      await db.destroy()
    }
  })

  it('run on the server’s connection when the thread cannot open the file', async () => {
    const { checkpointer, db, moveSome, left } = await open({
      threadFile: () => join(dir, 'no-such-folder', 'x.db'),
    })
    try {
      assert.equal(await inBatches(moveSome), 350)
      assert.equal(await left(), 0)
      assert.equal(checkpointer.stepsDone, 0)
      // One thread tried; the steps after it waited for none (FAILURE_PAUSE_MS).
      assert.equal(checkpointer.started, 1)
    } finally {
      await db.destroy()
    }
  })
})
