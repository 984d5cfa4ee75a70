import { closeSync, existsSync, fsyncSync, openSync, renameSync, rmSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import Libsql from 'libsql'
import { claimDataDir } from './data-dir-lock'
import { DATABASE_FILE } from './data-dir'

/**
 * A consistent copy of the embedded database while the server runs: SQLite's VACUUM INTO reads
 * one snapshot (WAL readers never block the writer, nor it them) and writes a compact,
 * self-contained file. The server's DATA_DIR lock is not needed, and not taken.
 */
export function backup(dataDir: string, target: string): { bytes: number } {
  if (existsSync(target)) throw new Error(`${target} exists already: choose a new file name`)
  const source = join(dataDir, DATABASE_FILE)
  if (!existsSync(source))
    throw new Error(`no database in DATA_DIR=${dataDir} (${DATABASE_FILE} is missing)`)
  const partial = `${target}.partial`
  rmSync(partial, { force: true })
  const db = new Libsql(source, { timeout: 5000 })
  try {
    db.exec('pragma busy_timeout = 5000')
    db.prepare('vacuum into ?').run([partial])
  } finally {
    db.close()
  }
  check(partial)
  syncPath(partial)
  renameSync(partial, target)
  syncPath(dirname(target))
  return { bytes: statSync(target).size }
}

/**
 * Puts a backup in place of DATA_DIR's database. Only with the server stopped: DATA_DIR's lock
 * is taken, so a running server makes this refuse (exit 78) rather than have its file replaced
 * under it. The database it replaces is kept beside it.
 */
export function restore(dataDir: string, backupFile: string): { keptAs: string | null } {
  check(backupFile)
  const lock = claimDataDir(dataDir)
  try {
    const file = join(dataDir, DATABASE_FILE)
    const incoming = `${file}.restoring`
    rmSync(incoming, { force: true })
    const db = new Libsql(backupFile)
    try {
      db.prepare('vacuum into ?').run([incoming])
    } finally {
      db.close()
    }
    syncPath(incoming)
    let keptAs: string | null = null
    if (existsSync(file)) {
      keptAs = `${file}.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`
      // Its WAL first folded in, so the kept file is complete on its own.
      const current = new Libsql(file)
      try {
        current.exec('pragma wal_checkpoint(TRUNCATE)')
      } finally {
        current.close()
      }
      renameSync(file, keptAs)
    }
    for (const suffix of ['-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true })
    renameSync(incoming, file)
    syncPath(dataDir)
    return { keptAs }
  } finally {
    lock.release()
  }
}

/** A Painel database whose pages are all sound: integrity_check, and the tables it must have. */
function check(file: string): void {
  if (!existsSync(file)) throw new Error(`${file} does not exist`)
  const db = new Libsql(file)
  try {
    const result = db.prepare('pragma integrity_check').all() as { integrity_check: string }[]
    if (result[0]?.integrity_check !== 'ok') {
      throw new Error(`${file} is damaged: ${result.map((row) => row.integrity_check).join('; ')}`)
    }
    const tables = db
      .prepare(
        "select name from sqlite_master where type = 'table' and name in ('accounts', 'kysely_migration')",
      )
      .all()
    if (tables.length !== 2) throw new Error(`${file} is not a Painel database`)
  } catch (error) {
    if (error instanceof Error && error.message.startsWith(file)) throw error
    throw new Error(`${file} is not a Painel database (${String((error as Error).message)})`, {
      cause: error,
    })
  } finally {
    db.close()
  }
}

function syncPath(path: string): void {
  const fd = openSync(path, 'r')
  try {
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
}
