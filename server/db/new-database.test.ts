import assert from 'node:assert/strict'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { sql } from 'kysely'
import Libsql from 'libsql'
import { connect } from './database'
import { openEmbeddedStore } from './embedded-store'
import { isUpToDate, migrator } from './migrations'
import { writeNewDatabase } from './new-database'

/**
 * A first start on an empty DATA_DIR copies the empty database the build made beside the compiled
 * server (new-database.ts) instead of running every migration, and still ends with every
 * migration this code knows.
 */
const quiet = { info: () => {}, warn: () => {} }
let scratch: string
before(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'painel-new-database-'))
})
after(() => rm(scratch, { recursive: true, force: true }))

/** The build's database with a table of its own, to tell a copy of it from a database made anew. */
async function markedNewDatabase(name: string, upTo?: string): Promise<string> {
  const path = join(scratch, `${name}.sqlite`)
  if (upTo) {
    const db = connect({ sqliteFile: path }, undefined, { journal: 'delete' })
    const { error } = await migrator(db, 'sqlite').migrateTo(upTo)
    await db.destroy()
    if (error) throw error instanceof Error ? error : new Error(JSON.stringify(error))
  } else {
    await writeNewDatabase(path)
  }
  const raw = new Libsql(path)
  raw.exec('create table made_by_the_build (x integer)')
  raw.close()
  return path
}

async function firstStart(newDatabase: string | undefined) {
  const dataDir = await mkdtemp(join(scratch, 'data-'))
  const database = await openEmbeddedStore(dataDir, quiet, undefined, newDatabase)
  try {
    const { rows } = await sql<{ name: string }>`select name from sqlite_master
      where name = 'made_by_the_build'`.execute(database.db)
    return { copied: rows.length === 1, upToDate: await isUpToDate(database.db) }
  } finally {
    await database.close()
  }
}

describe('a first start on an empty DATA_DIR', () => {
  it("begins from the build's empty database", async () => {
    assert.deepEqual(await firstStart(await markedNewDatabase('current')), {
      copied: true,
      upToDate: true,
    })
  })

  it('runs the migrations an older copy lacks', async () => {
    const older = await markedNewDatabase('older', '2026-11-28-2801-provider-link-invitations')
    assert.deepEqual(await firstStart(older), { copied: true, upToDate: true })
  })

  it('makes the database itself when there is no build beside it (the sources run by tsx)', async () => {
    assert.deepEqual(await firstStart(undefined), { copied: false, upToDate: true })
    assert.deepEqual(await firstStart(join(scratch, 'no-such-file.sqlite')), {
      copied: false,
      upToDate: true,
    })
  })
})
