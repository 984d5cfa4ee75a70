import assert from 'node:assert/strict'
import { join } from 'node:path'
import { after, it } from 'node:test'
import Libsql from 'libsql'
import {
  compiledServerFixture,
  ready,
  registrationLoops,
  startServer,
  stop,
} from '../test/compiled-server'

/**
 * An acknowledged write survives the process being killed at any moment (synchronous=FULL in
 * WAL mode: a commit is on disk before its answer is sent). Real processes, kill -9.
 */

const ROUNDS = 5
const LOOPS = 20

const fixture = compiledServerFixture('durability')

const env = () => ({
  DATA_DIR: fixture.dataDir,
  ADMIN_PASSWORD: 'Admin-Pass-12345',
  AUTH_RATE_LIMIT: '100000',
})

it(`kill -9 during ${LOOPS} concurrent registration loops, ${ROUNDS} rounds: every acknowledged registration is there after the restart`, async (t) => {
  const acknowledged: string[] = []
  for (let round = 0; round < ROUNDS; round++) {
    const server = startServer(fixture.dist, env())
    after(() => stop(server))
    await ready(server)
    const registrations = registrationLoops(server, LOOPS, `r${round}`)
    // Killed mid-stream: once the round has answers (scrypt makes each registration take a
    // while, longer on a busy machine), after a further random moment.
    const deadline = Date.now() + 30_000
    while (registrations.acknowledged.length < 5 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 500))
    server.child.kill('SIGKILL')
    await server.exited()
    await registrations.end()
    acknowledged.push(...registrations.acknowledged)
  }

  // The restart recovers the database (its WAL) and serves.
  const restarted = startServer(fixture.dist, env())
  after(() => stop(restarted))
  await ready(restarted)
  assert.equal(await stop(restarted), 0)

  const db = new Libsql(join(fixture.dataDir, 'painel.db'))
  try {
    const present = new Set(
      (db.prepare('select email from accounts').all() as { email: string }[]).map(
        (row) => row.email,
      ),
    )
    const lost = acknowledged.filter((email) => !present.has(email))
    t.diagnostic(`${acknowledged.length} acknowledged registrations, ${lost.length} lost`)
    assert.ok(acknowledged.length >= ROUNDS, 'registrations were acknowledged in the rounds')
    assert.deepEqual(lost, [])
    assert.deepEqual(db.prepare('pragma integrity_check').all(), [{ integrity_check: 'ok' }])
  } finally {
    db.close()
  }
})
