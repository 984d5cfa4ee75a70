import {
  constants,
  copyFileSync,
  existsSync,
  fsyncSync,
  openSync,
  closeSync,
  readFileSync,
  writeFileSync,
  renameSync,
  rmSync,
} from 'node:fs'
import { access, statfs } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { sql } from 'kysely'
import { DATABASE_FILE, dataDirFailure, PGLITE_FOLDER } from './data-dir'
import { claimDataDir, type DataDirLock } from './data-dir-lock'
import { connect, migrate, openDatabase, type Database } from './database'
import { importPglite } from './pglite-import'

/** A first start builds the database under this name... */
const CREATING_FILE = 'painel.db.creating'
/** ...and copies it to this one, renamed into place once it is on disk. */
const COMPLETE_FILE = 'painel.db.complete'
/** Below this much free space the store reports itself unable to write (readiness is 503). */
const MIN_FREE_BYTES = 1024 * 1024

export interface StoreLog {
  info(message: string): void
  warn(message: string): void
}

/**
 * The embedded store in DATA_DIR, in this order: the folder is checked (exists or is made, is a
 * folder, takes a write), the process takes DATA_DIR's lock, and only then is the database
 * opened. On a first start it is made complete under a temporary name and renamed into place,
 * from an earlier version's PGlite folder when there is one: a start that fails leaves nothing
 * half-made, and the next one begins clean. Every failure of the folder is a DataDirError.
 */
export async function openEmbeddedStore(
  dataDir: string,
  log: StoreLog,
  lock: DataDirLock = claimDataDir(dataDir),
  /** The build's empty database (db/new-database.ts), when there is one: a first start copies it. */
  newDatabase?: string,
): Promise<Database> {
  try {
    const file = join(dataDir, DATABASE_FILE)
    if (!existsSync(file)) await createDatabase(dataDir, log, newDatabase)
    for (const part of [file, `${file}-wal`, `${file}-shm`]) {
      if (!existsSync(part)) continue
      await access(part, constants.W_OK).catch((error: unknown) => {
        throw dataDirFailure(dataDir, error, { file: basename(part) })
      })
    }
    const database = await openDatabase(
      { sqliteFile: file },
      {
        canWrite: () => folderCanWrite(dataDir, file),
        onClose: () => lock.release(),
        sqlite: { checkpointer: log },
      },
    ).catch((error: unknown) => {
      throw dataDirFailure(dataDir, error, { file: DATABASE_FILE })
    })
    try {
      // A file this process may not write opens, read-only, and reads; the first write would
      // fail. Found now, with a write that changes nothing.
      const { rows } = await sql<{ user_version: number }>`pragma user_version`.execute(database.db)
      await sql
        .raw(`pragma user_version = ${Number(rows[0]?.user_version ?? 0)}`)
        .execute(database.db)
    } catch (error) {
      await database.db.destroy()
      throw dataDirFailure(dataDir, error, { file: DATABASE_FILE })
    }
    return database
  } catch (error) {
    lock.release()
    throw error
  }
}

/**
 * Builds the database under a temporary name, then puts a COPY of it in place: a new file that
 * no connection of this process has opened. libsql keeps a connection open after close() while
 * any statement it prepared is alive (Kysely prepares one per query), and SQLite's unix VFS
 * shares one lock and shared-memory index per inode within a process. Renaming the built file
 * into place left the server's connection attached to the temporary file's (deleted) `-shm`
 * index, so another process opening painel.db read-write (a backup, an operator's sqlite3)
 * made a second index, checkpointed and deleted the WAL the server was still appending to:
 * acknowledged writes were lost at the next kill -9. The build uses a rollback journal, so the
 * connection left behind holds no index or WAL at all; first-start-backup.test.ts proves it.
 * The build's empty database, which no connection opens before it is in place, is written under
 * the second name at once.
 */
async function createDatabase(
  dataDir: string,
  log: StoreLog,
  newDatabase: string | undefined,
): Promise<void> {
  const creating = join(dataDir, CREATING_FILE)
  const complete = join(dataDir, COMPLETE_FILE)
  removeWithSidecars(creating) // a first start that died half-way; we hold the lock
  removeWithSidecars(complete)
  const old = join(dataDir, PGLITE_FOLDER)
  const build = newDatabase !== undefined && existsSync(newDatabase) ? newDatabase : null
  try {
    if (build !== null && !existsSync(old)) {
      // The build's empty database, migrated already (db/new-database.ts), is complete as it
      // is: its bytes go straight to the name renamed into place, and openDatabase runs any
      // migration it lacks, as at every start. Opened here first, then copied, it took
      // openEmbeddedStore 26-34 ms in a new process, against 19-26 now (five runs each, by
      // hand; a restart's 13-20). Its bytes, not the file: a copy would keep the file's mode,
      // and the image's code is read-only to the server (Dockerfile).
      writeFileSync(complete, readFileSync(build))
    } else {
      await buildDatabase(creating, build, old, log)
      // Every transaction is committed (rollback journal: the file is the whole database).
      copyFileSync(creating, complete)
    }
    syncFile(complete)
    renameSync(complete, join(dataDir, DATABASE_FILE))
    removeWithSidecars(creating)
    syncFile(dataDir)
    if (existsSync(old)) {
      const kept = `${old}.imported`
      renameSync(old, kept)
      log.warn(
        `the earlier version's database is kept, unused, in ${kept}: delete it once you no longer need it`,
      )
    }
  } catch (error) {
    removeWithSidecars(creating)
    removeWithSidecars(complete)
    throw dataDirFailure(dataDir, error, {
      note: 'the first start stopped and kept nothing; the next one begins clean',
    })
  }
}

/**
 * The database made in `creating` by the migrations, from the build's empty one when there is
 * one (the sources run by tsx and the tests have none), and filled from an earlier version's
 * PGlite folder: closed when it returns.
 */
async function buildDatabase(
  creating: string,
  build: string | null,
  old: string,
  log: StoreLog,
): Promise<void> {
  if (build !== null) writeFileSync(creating, readFileSync(build))
  const db = connect({ sqliteFile: creating }, undefined, { journal: 'delete' })
  try {
    await migrate(db, 'sqlite')
    if (existsSync(old)) {
      log.info(
        `DATA_DIR holds a database of an earlier version (${old}): copying it into ${DATABASE_FILE}`,
      )
      const counts = await importPglite(old, db)
      log.info(
        `copied from ${old}: ${Object.entries(counts)
          .map(([table, n]) => `${n} ${table}`)
          .join(', ')}`,
      )
    }
  } catch (error) {
    await db.destroy().catch(() => {})
    throw error
  }
  await db.destroy()
}

function removeWithSidecars(file: string): void {
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${file}${suffix}`, { force: true })
}

function syncFile(path: string): void {
  const fd = openSync(path, 'r')
  try {
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
}

/**
 * Readiness of the embedded store: its folder and file take writes and the disk has room. A
 * query alone would answer 200 on a full or read-only disk, where every write fails.
 */
async function folderCanWrite(dataDir: string, file: string): Promise<boolean> {
  try {
    await access(dataDir, constants.W_OK)
    await access(file, constants.W_OK)
    const space = await statfs(dataDir)
    return space.bavail * space.bsize >= MIN_FREE_BYTES
  } catch {
    return false
  }
}
