import assert from 'node:assert/strict'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, it } from 'node:test'
import { sql } from 'kysely'
import { connect } from './database'
import { CACHE_KIB, openSqlite } from './sqlite-database'
import { StorageUnavailableError } from './storage-failure'

let folder: string
before(async () => {
  folder = await mkdtemp(join(tmpdir(), 'painel-sqlite-'))
})
after(() => rm(folder, { recursive: true, force: true }))

it('runs every connection in WAL mode, synchronous=FULL, with foreign keys, no busy wait of its own and secure_delete', () => {
  const db = openSqlite(join(folder, 'pragmas.db'))
  try {
    const pragma = (name: string) =>
      Object.values(db.raw.prepare(`pragma ${name}`).all()[0] as object)[0] as unknown
    assert.equal(pragma('journal_mode'), 'wal')
    assert.equal(pragma('synchronous'), 2) // FULL
    assert.equal(pragma('foreign_keys'), 1)
    // SQLite's wait would sleep on the event loop: sqlite-dialect.ts waits on a timer instead.
    assert.equal(pragma('busy_timeout'), 0)
    assert.equal(pragma('secure_delete'), 1)
    assert.equal(pragma('cache_size'), -CACHE_KIB)
  } finally {
    db.close()
  }
})

it('binds Date and boolean parameters, and reads timestamptz and boolean columns back as Date and boolean', () => {
  const db = openSqlite(':memory:')
  try {
    db.prepare('create table t (id text primary key, at timestamptz, flag boolean, note text)').run(
      [],
    )
    const at = new Date('2026-11-22T16:49:26.123Z')
    const inserted = db
      .prepare('insert into t values (?, ?, ?, ?) returning *')
      .all(['a', at, true, '2026-11-22T16:49:26.123Z'])
    // A text column that merely looks like a time stays text.
    assert.deepEqual(inserted, [{ id: 'a', at, flag: true, note: '2026-11-22T16:49:26.123Z' }])
    db.prepare('insert into t values (?, ?, ?, ?)').run([
      'b',
      new Date('2026-11-23T00:00:00.000Z'),
      false,
      null,
    ])
    assert.deepEqual(db.prepare('select id, flag from t where at > ? order by id').all([at]), [
      { id: 'b', flag: false },
    ])
    assert.deepEqual(
      [...db.prepare('select at from t where id = ?').iterate(['b'])],
      [{ at: new Date('2026-11-23T00:00:00.000Z') }],
    )
  } finally {
    db.close()
  }
})

it('turns a write the storage refuses into a StorageUnavailableError (503), other errors left as they are', () => {
  const db = openSqlite(':memory:')
  try {
    db.prepare('create table t (id text primary key)').run([])
    db.prepare('insert into t values (?)').run(['a'])
    assert.throws(
      () => db.prepare('insert into t values (?)').run(['a']),
      (error: Error) => !(error instanceof StorageUnavailableError) && /UNIQUE/.test(error.message),
    )
    db.raw.exec('pragma query_only = 1')
    assert.throws(
      () => db.prepare('insert into t values (?)').run(['b']),
      (error: unknown) =>
        error instanceof StorageUnavailableError &&
        error.statusCode === 503 &&
        error.problem === 'read-only',
    )
  } finally {
    db.close()
  }
})

it('a transaction that fills the database fails with the storage error, not with its rollback', async () => {
  const db = connect({ sqliteFile: join(folder, 'full.db') })
  try {
    await sql`create table big (data blob)`.execute(db)
    const { rows } = await sql<{ page_count: number }>`pragma page_count`.execute(db)
    // No page more than it has: the next write that needs one is SQLITE_FULL, a full disk's code.
    await sql.raw(`pragma max_page_count = ${rows[0]!.page_count}`).execute(db)
    await assert.rejects(
      db.transaction().execute(async (trx) => {
        await sql`insert into big values (zeroblob(1000000))`.execute(trx)
      }),
      (error) => error instanceof StorageUnavailableError,
    )
    // The connection is usable after it: no transaction was left open.
    await sql`select count(*) from big`.execute(db)
  } finally {
    await db.destroy()
  }
})

it('gives the event loop a turn between two waiting queries: I/O never waits for a queue of them', async () => {
  const db = connect({ sqliteFile: ':memory:' })
  try {
    let secondRan = false
    const first = sql`select 1`.execute(db)
    const second = sql`select 2`.execute(db).then(() => (secondRan = true))
    await first
    // The first query's turn of the loop has ended its microtasks and ticks: the second waits
    // for the next turn, after the loop has read what came in.
    for (let i = 0; i < 10; i += 1) await new Promise((resolve) => process.nextTick(resolve))
    assert.equal(secondRan, false)
    await second
  } finally {
    await db.destroy()
  }
})

it('starts a query from the event loop even when the connection is free, never in the microtasks of its caller', async () => {
  const db = connect({ sqliteFile: ':memory:' })
  try {
    let ran = false
    const query = sql`select 1`.execute(db).then(() => (ran = true))
    // Every microtask and tick of this turn of the loop: the query has not run.
    for (let i = 0; i < 10; i += 1) await new Promise((resolve) => process.nextTick(resolve))
    assert.equal(ran, false)
    await query
  } finally {
    await db.destroy()
  }
})

it('after close, a statement kept, a new one and a query through Kysely fail as errors, never reaching libsql (which panics)', async () => {
  const raw = openSqlite(':memory:')
  const kept = raw.prepare('select 1 as one')
  assert.deepEqual(kept.all([]), [{ one: 1 }])
  raw.close()
  raw.close() // twice: a shutdown and a test's own cleanup
  assert.equal(raw.isOpen, false)
  assert.throws(() => kept.all([]), /not open/)
  assert.throws(() => raw.prepare('select 2'), /not open/)

  const db = connect({ sqliteFile: ':memory:' })
  await sql`select 1`.execute(db)
  await db.destroy()
  await assert.rejects(sql`select 1`.execute(db))
})
