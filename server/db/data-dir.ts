import { closeSync, fsyncSync, mkdirSync, openSync, rmSync, statSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { DataDirError } from './data-dir-error'
import { storageProblem, type StorageProblem } from './storage-failure'

/**
 * What to tell an operator whose DATA_DIR cannot be used: one line, naming the folder, the
 * problem and what to do.
 */
export function describeProblem(dataDir: string, problem: StorageProblem, detail = ''): string {
  const user = typeof process.getuid === 'function' ? ` (user ${process.getuid()})` : ''
  const what = detail ? ` ${detail}` : ''
  switch (problem) {
    case 'no-space':
      return `DATA_DIR=${dataDir} has no space left${what}: free some space on its disk (or give the volume more), then start again.`
    case 'read-only':
      return `DATA_DIR=${dataDir} is read-only${what}: mount it read-write (or point DATA_DIR at a writable folder), then start again.`
    case 'no-permission':
      return `DATA_DIR=${dataDir} is not writable by this process${user}${what}: give the folder to that user (chown), or point DATA_DIR at one it owns.`
    case 'io':
      return `DATA_DIR=${dataDir} gave an I/O error${what}: check the disk and the volume, then start again.`
  }
}

/** Rethrows a storage failure of DATA_DIR as a DataDirError with its one line; others as they are. */
export function dataDirFailure(dataDir: string, error: unknown, detail = ''): unknown {
  if (error instanceof DataDirError) return error
  const problem = storageProblem(error)
  return problem
    ? new DataDirError(describeProblem(dataDir, problem, detail), { cause: error })
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
    if (
      (error as NodeJS.ErrnoException).code === 'EEXIST' ||
      (error as NodeJS.ErrnoException).code === 'ENOTDIR'
    ) {
      throw notAFolder(dataDir, error)
    }
    throw dataDirFailure(dataDir, error, '(it cannot be created)')
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
