import assert from 'node:assert/strict'
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, it } from 'node:test'
import Libsql from 'libsql'
import { sql } from 'kysely'
import { openDatabase } from './database'
import { CHECKPOINT_AT_WAL_BYTES, walBytes } from './wal-checkpointer'

/**
 * A start that finds a large WAL (an upgrade's migrations, a kill -9) folds it in before the
 * server answers: left to the first scheduled checkpoint, it was copied and emptied while the
 * first requests waited for the connection (database.ts, foldInLargeWal).
 */
const dir = mkdtempSync(join(tmpdir(), 'painel-large-wal-'))
after(() => rmSync(dir, { recursive: true, force: true }))

/**
 * A migrated database whose WAL holds `rows` rows of 3,000 bytes, as a kill -9 leaves it: the
 * file and its WAL copied while the writer still has them open. Answers the copy's path.
 */
async function leftByKill(name: string, rows: number): Promise<string> {
  const file = join(dir, `${name}.db`)
  await (await openDatabase({ sqliteFile: file })).close()
  const writer = new Libsql(file)
  writer.exec('pragma wal_autocheckpoint = 0')
  writer.exec('create table filler (blob blob)')
  writer.exec(`insert into filler (blob) select randomblob(3000)
    from (with recursive n(i) as (select 1 union all select i + 1 from n where i < ${rows}) select i from n)`)
  mkdirSync(join(dir, `${name}-after-kill`))
  const found = join(dir, `${name}-after-kill`, 'painel.db')
  copyFileSync(file, found)
  copyFileSync(`${file}-wal`, `${found}-wal`)
  writer.close()
  return found
}

it('folds a WAL of a checkpoint’s worth or more into the file and empties it before the database is handed over', async () => {
  const found = await leftByKill('large', 2000)
  assert.ok(walBytes(found) >= CHECKPOINT_AT_WAL_BYTES, `a WAL of ${walBytes(found)} bytes to find`)

  const warnings: string[] = []
  const database = await openDatabase(
    { sqliteFile: found },
    { sqlite: { checkpointer: { warn: (message) => void warnings.push(message) } } },
  )
  try {
    assert.equal(walBytes(found), 0, 'the WAL emptied before openDatabase answered')
    const { rows } = await sql<{ n: number }>`select count(*) as n from filler`.execute(database.db)
    assert.equal(Number(rows[0]!.n), 2000, 'every row of the WAL is in the file')
  } finally {
    await database.close()
  }
  assert.deepEqual(warnings, [])
})

it('leaves a small WAL to the checkpoints the commits ask for', async () => {
  const found = await leftByKill('small', 1)
  const before = walBytes(found)
  assert.ok(before > 0 && before < CHECKPOINT_AT_WAL_BYTES)

  const database = await openDatabase(
    { sqliteFile: found },
    { sqlite: { checkpointer: { warn() {} } } },
  )
  try {
    assert.equal(walBytes(found), before, 'no checkpoint at the start for a WAL this small')
  } finally {
    await database.close()
  }
})
