import { hostname } from 'node:os'
import { join } from 'node:path'
import { closeSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import Libsql from 'libsql'
import { checkDataDir, dataDirFailure } from './data-dir'
import { DataDirError } from './data-dir-error'

export const LOCK_FILE = 'painel.lock'
/** Who holds the lock, for the refusal's message; informative only, the lock is the OS's. */
export const OWNER_FILE = 'painel.lock.owner'

export interface DataDirLock {
  release(): void
}

/**
 * One process per DATA_DIR, taken before the database is opened (or created, or imported).
 *
 * The lock is an OS lock (POSIX fcntl) on DATA_DIR/painel.lock, taken through SQLite's own
 * locking: an exclusive transaction in exclusive locking mode, held until the process ends.
 * Node has no flock(), and a lock that is only a file's existence (a pid file) outlives a
 * kill -9 or a power loss and cannot be trusted across containers, whose pids repeat. The kernel
 * drops an fcntl lock with its process however it ends, so a dead holder never blocks a start.
 */
export function lockDataDir(dataDir: string): DataDirLock {
  const lockPath = join(dataDir, LOCK_FILE)
  let lock: Libsql.Database
  try {
    // SQLite opens a file it may not write read-only, and a read-only file takes no write lock:
    // it would "succeed" without excluding anyone.
    closeSync(openSync(lockPath, 'a'))
    lock = new Libsql(lockPath, { timeout: 0 })
  } catch (error) {
    throw dataDirFailure(dataDir, error, { file: LOCK_FILE })
  }
  try {
    lock.exec('pragma journal_mode = off')
    lock.exec('pragma locking_mode = exclusive')
    lock.exec('begin exclusive')
    lock.exec('commit')
  } catch (error) {
    lock.close()
    if (String((error as { code?: unknown }).code).startsWith('SQLITE_BUSY')) {
      throw new DataDirError(
        `DATA_DIR=${dataDir} is in use by another Painel process (${owner(dataDir)}): only one ` +
          'process may use a DATA_DIR. Stop that one first; for several replicas use a ' +
          'PostgreSQL server (DATABASE_URL).',
        { cause: error },
      )
    }
    throw dataDirFailure(dataDir, error, { file: LOCK_FILE })
  }
  const ownerPath = join(dataDir, OWNER_FILE)
  writeFileSync(
    ownerPath,
    `pid ${process.pid} on host ${hostname()}, since ${new Date().toISOString()}\n`,
  )
  return {
    release() {
      rmSync(ownerPath, { force: true })
      lock.close()
    },
  }
}

function owner(dataDir: string): string {
  try {
    return readFileSync(join(dataDir, OWNER_FILE), 'utf8').trim()
  } catch {
    return 'a process that has not said which'
  }
}

/**
 * DATA_DIR checked and locked for this process: main.ts does it before the rest of the server is
 * even loaded (only a first start's hash is begun before it), so that a second process is refused
 * within a fraction of a second.
 */
export function claimDataDir(dataDir: string): DataDirLock {
  checkDataDir(dataDir)
  return lockDataDir(dataDir)
}
