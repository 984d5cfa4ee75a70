import assert from 'node:assert/strict'
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, it } from 'node:test'
import Libsql from 'libsql'
import { sql } from 'kysely'
import { openDatabase } from './database'
import { CHECKPOINT_AT_WAL_BYTES } from './wal-checkpointer'

/**
 * A start that finds a large WAL (an upgrade's migrations, a kill -9) folds it in before the
 * server answers: left to the first scheduled checkpoint, it was copied and emptied while the
 * first requests waited for the connection (database.ts, foldInLargeWal).
 */
const dir = mkdtempSync(join(tmpdir(), 'painel-large-wal-'))
after(() => rmSync(dir, { recursive: true, force: true }))

const walSize = (file: string) => statSync(`${file}-wal`, { throwIfNoEntry: false })?.size ?? 0

it('folds a WAL of a checkpoint’s worth or more into the file and empties it before the database is handed over', async () => {
  const file = join(dir, 'painel.db')
  await (await openDatabase({ sqliteFile: file })).close()

  // The file and its WAL as a kill -9 leaves them: copied while the writer still has them open.
  const writer = new Libsql(file)
  writer.exec('pragma wal_autocheckpoint = 0')
  writer.exec('create table filler (blob blob)')
  writer.exec(`insert into filler (blob) select randomblob(3000)
    from (with recursive n(i) as (select 1 union all select i + 1 from n where i < 2000) select i from n)`)
  const left = join(dir, 'after-kill')
  mkdirSync(left)
  const found = join(left, 'painel.db')
  copyFileSync(file, found)
  copyFileSync(`${file}-wal`, `${found}-wal`)
  writer.close()
  assert.ok(walSize(found) >= CHECKPOINT_AT_WAL_BYTES, `a WAL of ${walSize(found)} bytes to find`)

  const warnings: string[] = []
  const database = await openDatabase(
    { sqliteFile: found },
    { sqlite: { checkpointer: { warn: (message) => void warnings.push(message) } } },
  )
  try {
    assert.equal(walSize(found), 0, 'the WAL emptied before openDatabase answered')
    const { rows } = await sql<{ n: number }>`select count(*) as n from filler`.execute(database.db)
    assert.equal(Number(rows[0]!.n), 2000, 'every row of the WAL is in the file')
  } finally {
    await database.close()
  }
  assert.deepEqual(warnings, [])
})

it('leaves a small WAL to the checkpoints the commits ask for', async () => {
  const file = join(dir, 'small.db')
  await (await openDatabase({ sqliteFile: file })).close()
  const writer = new Libsql(file)
  writer.exec('pragma wal_autocheckpoint = 0')
  writer.exec('create table filler (blob blob)')
  writer.exec('insert into filler (blob) values (randomblob(3000))')
  const left = join(dir, 'small-after-kill')
  mkdirSync(left)
  const found = join(left, 'small.db')
  copyFileSync(file, found)
  copyFileSync(`${file}-wal`, `${found}-wal`)
  writer.close()
  const before = walSize(found)
  assert.ok(before > 0 && before < CHECKPOINT_AT_WAL_BYTES)

  const database = await openDatabase(
    { sqliteFile: found },
    { sqlite: { checkpointer: { warn() {} } } },
  )
  try {
    assert.equal(walSize(found), before, 'no checkpoint at the start for a WAL this small')
  } finally {
    await database.close()
  }
})
