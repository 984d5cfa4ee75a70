import { rmSync } from 'node:fs'
import { connect, migrate } from './database'

/**
 * The embedded database a first start begins from, made by the build beside the compiled server
 * (dist/server/): empty, every migration run. A first start copies it instead of running the
 * migrations itself, which was about 80 ms of a first start's 800 (the median of 15 first starts
 * each way, alternated, by hand: the DDL and Kysely's Migrator on a cold process); then it runs
 * whatever migrations the copy lacks, none when it comes from the same build
 * (db/embedded-store.ts). The built-in roles' creation time and the migrations' are the build's.
 */
export const NEW_DATABASE_FILE = 'new-database.sqlite'

/** Writes that database to `path`, replacing what is there. */
export async function writeNewDatabase(path: string): Promise<void> {
  rmSync(path, { force: true })
  // A rollback journal, as a first start builds it: the file alone is the whole database.
  const db = connect({ sqliteFile: path }, undefined, { journal: 'delete' })
  try {
    await migrate(db, 'sqlite')
  } finally {
    await db.destroy()
  }
}
