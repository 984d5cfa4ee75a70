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
import { StepFailed, WalCheckpointer } from './wal-checkpointer'

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

type Options = { lockWaitMs?: number; threadFile?: (file: string) => string; folder?: string }
type People = Awaited<ReturnType<typeof open>>

/**
 * Runs `test` on a file of 350 people in team 'a', whose thread's connection opens `threadFile`
 * (the same file unless a test says), and closes it after.
 */
async function withPeople(options: Options, test: (people: People) => Promise<void>) {
  const people = await open(options)
  try {
    await test(people)
  } finally {
    await people.db.destroy()
  }
}

async function open(options: Options) {
  const file = join(options.folder ?? dir, `db-${++files}.db`)
  const checkpointer = new WalCheckpointer(options.threadFile?.(file) ?? file, log)
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
    await withPeople({}, async ({ checkpointer, moveSome, left }) => {
      assert.equal(await inBatches(moveSome), 350)
      assert.equal(await left(), 0)
      // 100, 100, 100 and 50: four steps, all on the thread.
      assert.equal(checkpointer.stepsDone, 4)
      assert.equal(checkpointer.started, 1)
    })
  })

  it('a prune’s batches after its first run there too (deleteInBatches, runBatch)', async () => {
    await withPeople({}, async ({ checkpointer, db, left }) => {
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
      // Nothing to remove, as in most rounds of housekeeping: one statement, no thread started.
      await prune('z')
      assert.equal(checkpointer.running, false)
      await prune('a')
      assert.equal(await left(), 0)
      // 100 on the connection, then 100, 100 and 50 on the thread.
      assert.equal(checkpointer.stepsDone, 3)
      // Inside a transaction, which holds the connection, a batch runs there, not on the thread.
      await sql`insert into people (team) values ('b')`.execute(db)
      await db.transaction().execute(async (trx) => {
        const batch = trx.deleteFrom('people').where('team', '=', 'b')
        assert.equal(await runBatch(trx as unknown as Db, batch), 1)
      })
      assert.equal(checkpointer.stepsDone, 3)
    })
  })

  it('a step whose statement fails fails with SQLite’s code, commits nothing, and the thread goes on', async () => {
    await withPeople({}, async ({ checkpointer, db, moveSome, left }) => {
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
    })
  })

  it(
    'a full disk on the thread is a storage failure (503), as on the server’s connection',
    { skip: canMountDisk ? false : 'needs root, for a tmpfs mount' },
    async () => {
      const disk = await mountSmallDisk('steps', '4m')
      try {
        await withPeople({ folder: disk.folder }, async ({ checkpointer, db, moveSome, left }) => {
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
        })
      } finally {
        await disk.release()
      }
    },
  )

  it('inside db.connection(), run on the connection the caller holds, without waiting for it', async () => {
    await withPeople({}, async ({ checkpointer, db }) => {
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
    })
  })

  it('do not keep the server’s connection while the thread starts', async () => {
    await withPeople({}, async ({ checkpointer, db, moveSome }) => {
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
    })
  })

  it('wait while another process holds the write lock, the loop free, and go on once it lets go', async () => {
    await withPeople({}, async ({ file, checkpointer, moveSome, left }) => {
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
      }
    })
  })

  it('past the lock wait, fail with a 503 and Retry-After, having changed nothing', async () => {
    await withPeople({ lockWaitMs: 200 }, async ({ file, moveSome, left }) => {
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
      }
    })
  })

  it('run on the server’s connection when the thread cannot open the file', async () => {
    const threadFile = () => join(dir, 'no-such-folder', 'x.db')
    await withPeople({ threadFile }, async ({ checkpointer, moveSome, left }) => {
      assert.equal(await inBatches(moveSome), 350)
      assert.equal(await left(), 0)
      assert.equal(checkpointer.stepsDone, 0)
      // One thread tried; the steps after it waited for none (FAILURE_PAUSE_MS).
      assert.equal(checkpointer.started, 1)
    })
  })
})
