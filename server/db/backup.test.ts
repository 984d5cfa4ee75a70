import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, it } from 'node:test'
import Libsql from 'libsql'
import { compiledServerFixture, ready, startServer, stop } from '../test/compiled-server'

/** `node dist/server/backup.js` (what `npm run backup` runs) beside a running server. */

const fixture = compiledServerFixture('backup-data')
let backups: string
before(async () => {
  backups = await mkdtemp(join(tmpdir(), 'painel-backups-'))
})
after(() => rm(backups, { recursive: true, force: true }))

const env = { DATA_DIR: '', ADMIN_PASSWORD: 'Admin-Pass-12345', AUTH_RATE_LIMIT: '100000' }

async function backupCommand(...args: string[]): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ['dist/server/backup.js', ...args], {
    cwd: fixture.dist.base,
    env: { PATH: process.env.PATH, DATA_DIR: fixture.dataDir },
  })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const [code] = (await once(child, 'exit')) as [number | null]
  return { code, output }
}

const emails = (file: string) => {
  const db = new Libsql(file)
  try {
    return (
      db.prepare('select email from accounts order by email').all() as { email: string }[]
    ).map((row) => row.email)
  } finally {
    db.close()
  }
}

it('takes a consistent copy while the server writes, refuses to restore under a running server, and restores once it is stopped', async () => {
  const server = startServer(fixture.dist, { ...env, DATA_DIR: fixture.dataDir })
  after(() => stop(server))
  await ready(server)
  const register = (email: string) =>
    fetch(`${server.url}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Conta', email, password: 'senha-de-teste-1' }),
    }).then((response) => response.status)

  const before = [] as string[]
  for (let n = 0; n < 5; n++) {
    const email = `antes-${n}@example.com`
    assert.equal(await register(email), 202)
    before.push(email)
  }
  // Writes go on during the backup.
  let writing = true
  const writer = (async () => {
    for (let n = 0; writing; n++) await register(`durante-${n}@example.com`)
  })()
  const file = join(backups, 'painel-backup.db')
  const taken = await backupCommand(file)
  writing = false
  await writer
  assert.equal(taken.code, 0, taken.output)
  assert.match(
    taken.output,
    new RegExp(`^backed up DATA_DIR=${fixture.dataDir} to ${file} \\(\\d+ bytes\\)\\n$`),
  )
  const inBackup = emails(file)
  for (const email of [...before, 'admin@localhost']) assert.ok(inBackup.includes(email), email)
  assert.equal((await backupCommand(file)).code, 1, 'never overwrites a backup')

  const refused = await backupCommand('--restore', file)
  assert.equal(refused.code, 78, refused.output)
  assert.match(refused.output, /is in use by another Painel process/)

  assert.equal(await register('depois@example.com'), 202)
  assert.equal(await stop(server), 0)

  const restored = await backupCommand('--restore', file)
  assert.equal(restored.code, 0, restored.output)
  assert.match(restored.output, /the database it replaced is kept as .*painel\.db\.before-restore-/)

  const again = startServer(fixture.dist, { ...env, DATA_DIR: fixture.dataDir })
  after(() => stop(again))
  await ready(again)
  const login = await fetch(`${again.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@localhost', password: 'Admin-Pass-12345' }),
  })
  assert.equal(login.status, 200)
  assert.equal(await stop(again), 0)
  assert.deepEqual(emails(join(fixture.dataDir, 'painel.db')), inBackup, 'the data is the backup’s')
})
