import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs'
import { join } from 'node:path'
import { DataDirError } from './data-dir-error'
import { storageProblem, type StorageProblem } from './storage-failure'

/** The embedded database's file in DATA_DIR. */
export const DATABASE_FILE = 'painel.db'
/**
 * Where versions before the SQLite engine kept their embedded database (PGlite) in DATA_DIR,
 * copied into DATABASE_FILE at the first start of this one (db/pglite-import.ts).
 */
export const PGLITE_FOLDER = 'pglite'

/**
 * Whether DATA_DIR holds a database: this version's file, or an earlier version's folder to copy
 * into it. Without either, the start is the first (db/embedded-store.ts makes the database, and
 * main.ts begins ADMIN_PASSWORD's hash early).
 */
export const holdsDatabase = (dataDir: string): boolean =>
  existsSync(join(dataDir, DATABASE_FILE)) || existsSync(join(dataDir, PGLITE_FOLDER))

/**
 * What to tell an operator whose DATA_DIR cannot be used: one line, naming the folder (and the
 * file in it, when one file is the problem), what is wrong and what to do.
 */
export function describeProblem(
  dataDir: string,
  problem: StorageProblem,
  { file, note }: { file?: string; note?: string } = {},
): string {
  const user = typeof process.getuid === 'function' ? ` (user ${process.getuid()})` : ''
  const subject = file ? `DATA_DIR=${dataDir}: ${file}` : `DATA_DIR=${dataDir}`
  const it = file ? 'the file' : 'the folder'
  const extra = note ? ` (${note})` : ''
  switch (problem) {
    case 'no-space':
      return `${subject}: no space left on the disk${extra}: free some space (or give the volume more), then start again.`
    case 'read-only':
      return `${subject} is read-only${user}${extra}: mount the volume read-write and make ${it} writable by this user, then start again.`
    case 'no-permission':
      return `${subject} is not writable by this process${user}${extra}: give ${it} to that user (chown), or point DATA_DIR at a folder it owns.`
    case 'io':
      return `${subject}: I/O error${extra}: check the disk and the volume, then start again.`
    case 'busy':
      return `${subject}: another process holds the database's write lock${extra} (an operator's sqlite3?): end its transaction, then start again.`
  }
}

/** Rethrows a storage failure in DATA_DIR as a DataDirError with its one line; others as they are. */
export function dataDirFailure(
  dataDir: string,
  error: unknown,
  where: { file?: string; note?: string } = {},
): unknown {
  if (error instanceof DataDirError) return error
  const problem = storageProblem(error)
  return problem
    ? new DataDirError(describeProblem(dataDir, problem, where), { cause: error })
    : error
}

/**
 * Makes sure DATA_DIR is a folder this process can write to, creating it when missing. A small
 * file is written, synced and removed: permissions, a read-only mount and a full disk all show
 * up here, before anything else is touched.
 */
export function checkDataDir(dataDir: string): void {
  try {
    mkdirSync(dataDir, { recursive: true })
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'EEXIST' || code === 'ENOTDIR') throw notAFolder(dataDir, error)
    throw dataDirFailure(dataDir, error, { note: 'it cannot be created' })
  }
  if (!statSync(dataDir).isDirectory()) throw notAFolder(dataDir)

  const probe = join(dataDir, `.write-check-${process.pid}`)
  let fd: number | undefined
  try {
    fd = openSync(probe, 'wx')
    writeSync(fd, Buffer.alloc(4096))
    fsyncSync(fd)
  } catch (error) {
    throw dataDirFailure(dataDir, error)
  } finally {
    if (fd !== undefined) closeSync(fd)
    rmSync(probe, { force: true })
  }
}

function notAFolder(dataDir: string, cause?: unknown): DataDirError {
  return new DataDirError(
    `DATA_DIR=${dataDir} is not a folder: point DATA_DIR at a folder (it is created when missing), or move what is there away.`,
    cause === undefined ? undefined : { cause },
  )
}
