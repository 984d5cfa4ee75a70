import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { openDatabase, type Database } from '../db/database'
import { scratchPostgres } from './test-database'

/**
 * A database whose stored bytes a test can read, as an attacker with its files or a dump would:
 * an SQLite file in a folder of its own (with its WAL, as they are when an answer comes: no
 * VACUUM, no checkpoint of the test's own), or a scratch PostgreSQL database when
 * TEST_DATABASE_URL is set (read with pg_dump). For the anonymisation tests, which look for a
 * person's words in all of it.
 */
export interface StoredDatabase {
  database: Database
  /** The SQLite file's folder (the file is painel.db in it), or null on PostgreSQL. */
  sqliteDir: string | null
  /** Everything stored, as text (the files read as Latin-1 and as UTF-8, or a data-only dump). */
  storedText(): Promise<string>
  /** Closes nothing of the app's: removes the folder or drops the scratch database. */
  remove(): Promise<void>
}

/** pg_dump of the running server's major version (Debian's wrapper picks one; this one is 15). */
const PG_DUMP = ['/usr/lib/postgresql/15/bin/pg_dump', 'pg_dump'].find(
  (path) => !path.startsWith('/') || existsSync(path),
)!

export async function storedDatabase(folderPrefix: string): Promise<StoredDatabase> {
  const serverUrl = process.env.TEST_DATABASE_URL
  if (serverUrl) {
    const scratch = await scratchPostgres(serverUrl)
    return {
      database: await openDatabase({ postgresUrl: scratch.url }),
      sqliteDir: null,
      async storedText() {
        const { stdout } = await promisify(execFile)(PG_DUMP, ['--data-only', scratch.url], {
          maxBuffer: 64 * 1024 * 1024,
        })
        return stdout
      },
      remove: scratch.drop,
    }
  }
  const dir = await mkdtemp(join(tmpdir(), folderPrefix))
  return {
    // As the server opens it (db/embedded-store.ts): its checkpoints, an anonymisation's among
    // them, on the checkpoint thread.
    database: await openDatabase(
      { sqliteFile: join(dir, 'painel.db') },
      { sqlite: { checkpointer: { warn: (message) => console.warn(message) } } },
    ),
    sqliteDir: dir,
    async storedText() {
      const files = (await readdir(dir)).filter((name) => name.startsWith('painel.db'))
      const parts = await Promise.all(files.map((name) => readFile(join(dir, name))))
      return Buffer.concat(parts).toString('latin1') + Buffer.concat(parts).toString('utf8')
    },
    remove: () => rm(dir, { recursive: true, force: true }),
  }
}
