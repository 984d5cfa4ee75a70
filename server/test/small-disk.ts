import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { mkdtemp, open, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * A small disk that fills up while the server runs, for the storage tests
 * (server/db/storage-outage.test.ts, server/db/full-disk-writes.test.ts): a tmpfs of its own,
 * filled with zeros until a write meets ENOSPC. Mounting needs root; without it those tests skip.
 */

/** Whether this process may mount a tmpfs. */
export const canMountDisk = process.getuid?.() === 0

export interface SmallDisk {
  /** Where the disk is mounted: the test's DATA_DIR or SQLite file go here. */
  folder: string
  /** Unmounts it and removes its folder. */
  release(): Promise<void>
}

/** A new folder under the system's temporary one with a tmpfs of `size` (mount's size=, e.g. 2m). */
export async function mountSmallDisk(name: string, size: string): Promise<SmallDisk> {
  const folder = await mkdtemp(join(tmpdir(), `painel-${name}-`))
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', folder])
  } catch (error) {
    await rm(folder, { recursive: true, force: true })
    throw error
  }
  return {
    folder,
    async release() {
      // Lazily: libsql finalises statements on garbage collection, so the file may still be open.
      execFileSync('umount', ['-l', folder])
      await rm(folder, { recursive: true, force: true })
    },
  }
}

/**
 * Writes zeros at the end of `folder`'s filler until the disk is full (a second call tops it
 * up after the server wrote into what room was left); the filler's path, to remove for room.
 */
export async function fillDisk(folder: string): Promise<string> {
  const path = join(folder, 'filler')
  const file = await open(path, 'a')
  try {
    const block = Buffer.alloc(4 * 1024)
    for (;;) await file.write(block)
  } catch (error) {
    assert.equal((error as NodeJS.ErrnoException).code, 'ENOSPC')
  } finally {
    await file.close()
  }
  return path
}
