import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { chmod, chown, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import {
  compiledServerDist,
  ready,
  startServer,
  stop,
  type ServerProcess,
} from '../test/compiled-server'
import type { FixtureDist } from '../test/fixture-dist'

/**
 * Every DATA_DIR the server cannot use ends the start with one line naming DATA_DIR, what is
 * wrong and what to do, and exit code 78; never a stack trace. Real processes; the cases that
 * need another user or a small disk (a tmpfs) run when the tests run as root.
 */

const NOBODY = 65534
const isRoot = process.getuid?.() === 0
const canMount = isRoot && mountWorks()
const needsRoot = isRoot ? false : 'needs root (another user, or a tmpfs mount)'
const needsMount = canMount ? false : 'needs root and tmpfs mounts'

function mountWorks(): boolean {
  try {
    const probe = execFileSync('mktemp', ['-d'], { encoding: 'utf8' }).trim()
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', probe])
    execFileSync('umount', [probe])
    execFileSync('rmdir', [probe])
    return true
  } catch {
    return false
  }
}

let dist: FixtureDist
let scratch: string
const mounts: string[] = []
before(async () => {
  dist = await compiledServerDist()
  scratch = await mkdtemp(join(tmpdir(), 'painel-unusable-'))
  await chmod(scratch, 0o755)
})
after(async () => {
  for (const mount of mounts) execFileSync('umount', [mount])
  await rm(scratch, { recursive: true, force: true })
  await dist.cleanup()
})

async function tmpfs(name: string, size: string): Promise<string> {
  const folder = join(scratch, name)
  await mkdir(folder)
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0755`, 'tmpfs', folder])
  mounts.push(folder)
  return folder
}

const env = (dataDir: string) => ({ DATA_DIR: dataDir, ADMIN_PASSWORD: 'Admin-Pass-12345' })

/** The start ends with exit 78 and exactly one line, which matches `pattern`. */
async function refused(server: ServerProcess, pattern: RegExp): Promise<void> {
  const timer = setTimeout(() => server.child.kill('SIGKILL'), 15_000)
  const code = await server.exited()
  clearTimeout(timer)
  const output = server.output().trim()
  assert.equal(code, 78, output)
  assert.equal(output.split('\n').length, 1, `one line: ${output}`)
  assert.match(output, pattern)
  assert.doesNotMatch(output, /\bat \S+:\d+/, 'no stack trace')
}

async function createDatabase(dataDir: string): Promise<void> {
  const server = startServer(dist, env(dataDir))
  await ready(server)
  assert.equal(await stop(server), 0)
}

describe('an unusable DATA_DIR: one clear line, exit 78 (real processes)', () => {
  it('is a file', async () => {
    const file = join(scratch, 'a-file')
    await writeFile(file, 'not a folder')
    await refused(
      startServer(dist, env(file)),
      new RegExp(`^painel: DATA_DIR=${file} is not a folder: `),
    )
  })

  it('is not writable by the user the server runs as', { skip: needsRoot }, async () => {
    const folder = join(scratch, 'roots-folder')
    await mkdir(folder, { mode: 0o755 })
    await refused(
      startServer(dist, env(folder), { uid: NOBODY, gid: NOBODY }),
      new RegExp(
        `^painel: DATA_DIR=${folder} is not writable by this process \\(user ${NOBODY}\\): give the folder to that user`,
      ),
    )
  })

  it(
    'holds a database file the server may not write (restored as root, say)',
    { skip: needsRoot },
    async () => {
      const folder = join(scratch, 'roots-database')
      await createDatabase(folder)
      await chown(folder, NOBODY, NOBODY)
      // Only the database is root's: the lock file is made anew by the server.
      await rm(join(folder, 'painel.lock'))
      await refused(
        startServer(dist, env(folder), { uid: NOBODY, gid: NOBODY }),
        new RegExp(
          `^painel: DATA_DIR=${folder}: painel\\.db is not writable by this process \\(user ${NOBODY}\\)`,
        ),
      )
    },
  )

  it('is on a read-only mount', { skip: needsMount }, async () => {
    const folder = await tmpfs('read-only', '4m')
    await createDatabase(folder)
    execFileSync('mount', ['-o', 'remount,ro', folder])
    await refused(
      startServer(dist, env(folder)),
      new RegExp(
        `^painel: DATA_DIR=${folder} is read-only \\(user 0\\): mount the volume read-write`,
      ),
    )
  })

  // An existing database on a disk that filled up since: the write probe (db/data-dir.ts,
  // checkDataDir) says so before the database opens, not a failed write later.
  it('is full at a restart', { skip: needsMount }, async () => {
    const folder = await tmpfs('full', '4m')
    await createDatabase(folder)
    try {
      execFileSync('dd', ['if=/dev/zero', `of=${join(folder, 'filler')}`, 'bs=4k'], {
        stdio: 'ignore',
      })
    } catch {
      // dd ends with "No space left on device": the disk is full, as wanted.
    }
    await refused(
      startServer(dist, env(folder)),
      new RegExp(`^painel: DATA_DIR=${folder}: no space left on the disk: free some space`),
    )
  })

  it(
    'fills up during the first start: nothing half-made is left, and the next start begins clean',
    { skip: needsMount },
    async () => {
      const folder = await tmpfs('small', '64k')
      await refused(
        startServer(dist, env(folder)),
        new RegExp(
          `^painel: DATA_DIR=${folder}: no space left on the disk \\(the first start stopped and kept nothing; the next one begins clean\\): free some space`,
        ),
      )
      assert.deepEqual(
        (await readdir(folder)).filter((name) => name.startsWith('painel.db')),
        [],
      )

      execFileSync('mount', ['-o', 'remount,size=4m', folder])
      const next = startServer(dist, env(folder))
      after(() => stop(next))
      await ready(next)
      const login = await fetch(`${next.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'admin@localhost', password: 'Admin-Pass-12345' }),
      })
      assert.equal(login.status, 200, 'the first admin was made on the clean start')
      assert.equal(await stop(next), 0)
    },
  )
})

it(
  'a lock file the server may not write is refused, not taken without excluding anyone',
  { skip: needsRoot },
  async () => {
    const folder = join(scratch, 'roots-lock')
    await createDatabase(folder)
    await chown(folder, NOBODY, NOBODY)
    await chown(join(folder, 'painel.db'), NOBODY, NOBODY)
    await refused(
      startServer(dist, env(folder), { uid: NOBODY, gid: NOBODY }),
      new RegExp(
        `^painel: DATA_DIR=${folder}: painel\\.lock is not writable by this process \\(user ${NOBODY}\\)`,
      ),
    )
  },
)
