import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { freePortSync } from '../../scripts/free-port'
import {
  compiledServerFixture,
  ready,
  startServer,
  stop,
  type ServerProcess,
} from '../test/compiled-server'
import { openDatabase } from '../db/database'
import { SmtpCatcher } from '../test/smtp-catcher'
import { testDatabaseLocation } from '../test/test-database'

/**
 * Mail survives an SMTP server that restarts, and a server killed while mail waits: the compiled
 * server, a real SMTP server on loopback, and the outbox's retries (MAIL_RETRY_DELAY=1s).
 */

const fixture = compiledServerFixture('mail-outage')
const ADMIN = { email: 'chefe@example.com', password: 'Admin-Pass-12345' }
const SUBJECTS = {
  registration: 'Painel: um novo cadastro aguarda aprovação',
  reset: 'Painel: criar uma nova senha',
  invitation: 'Painel: você recebeu um convite',
  approved: 'Painel: seu cadastro foi aprovado',
}

let catcher: SmtpCatcher
let location: Awaited<ReturnType<typeof testDatabaseLocation>>
before(async () => {
  catcher = new SmtpCatcher(freePortSync())
  location = await testDatabaseLocation()
})
after(async () => {
  await catcher.stop()
  await location.cleanup()
})

const env = () => ({
  ...(location.databaseUrl ? { DATABASE_URL: location.databaseUrl } : {}),
  DATA_DIR: fixture.dataDir,
  ADMIN_EMAIL: ADMIN.email,
  ADMIN_PASSWORD: ADMIN.password,
  MFA_REQUIRED: 'off',
  AUTH_RATE_LIMIT: '100000',
  SMTP_URL: catcher.url,
  MAIL_RETRY_DELAY: '1',
})

async function call(
  server: ServerProcess,
  method: string,
  path: string,
  body?: object,
  token?: string,
) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  })
  const text = await response.text()
  return { status: response.status, json: () => JSON.parse(text) as Record<string, unknown> }
}

async function signIn(server: ServerProcess): Promise<string> {
  const answer = await call(server, 'POST', '/api/auth/login', ADMIN)
  assert.equal(answer.status, 200)
  return answer.json().token as string
}

/** Until `done`, polling; fails with what was caught when it does not come. */
async function waitFor(done: () => boolean, what: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs
  while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50))
  assert.ok(done(), `${what}; caught: ${JSON.stringify(catcher.caught.map((mail) => mail.to))}`)
}

/** Failed attempts the server has logged (LOG_LEVEL=warn: one line per failed attempt). */
const failedAttempts = (server: ServerProcess) =>
  server
    .output()
    .split('\n')
    .filter((line) => line.includes('mail not delivered; will retry')).length

describe('mail through an SMTP outage (real processes)', () => {
  it('mails caused while SMTP is down arrive once it is back, each exactly once', async () => {
    const server = startServer(fixture.dist, env())
    after(() => stop(server))
    await ready(server)
    const token = await signIn(server)

    // SMTP is down (the catcher has not started): register, recovery, invitation.
    const registered = await call(server, 'POST', '/api/auth/register', {
      name: 'Nova Pessoa',
      email: 'nova@example.com',
      password: 'senha-da-nova-1',
    })
    assert.equal(registered.status, 202)
    assert.equal(
      (await call(server, 'POST', '/api/auth/password-recovery', { email: ADMIN.email })).status,
      202,
    )
    const invited = await call(
      server,
      'POST',
      '/api/staff/invitations',
      { name: 'Convidada', email: 'convidada@example.com', role: 'staff' },
      token,
    )
    assert.equal(invited.status, 201)
    await waitFor(() => failedAttempts(server) >= 3, 'every mail was tried and failed')
    assert.equal(catcher.caught.length, 0)

    await catcher.start()
    await waitFor(() => catcher.caught.length >= 3, 'the three mails arrived')
    // Long enough for any second copy: retries are a second apart.
    await new Promise((resolve) => setTimeout(resolve, 2500))
    assert.deepEqual(catcher.subjectsTo(ADMIN.email).sort(), [
      SUBJECTS.reset,
      SUBJECTS.registration,
    ])
    assert.deepEqual(catcher.subjectsTo('convidada@example.com'), [SUBJECTS.invitation])
    assert.equal(catcher.caught.length, 3)
    assert.equal(await stop(server), 0)
  })

  it('a server killed (-9) while mails wait sends them after its restart, each exactly once', async () => {
    await catcher.stop()
    const before = catcher.caught.length
    const toAdminBefore = catcher.subjectsTo(ADMIN.email).length
    const first = startServer(fixture.dist, env())
    after(() => stop(first))
    await ready(first)
    const token = await signIn(first)
    const pending = await call(first, 'GET', '/api/staff?status=pending', undefined, token)
    const [person] = pending.json().items as { id: string }[]
    assert.ok(person, 'the registration of the first test')
    assert.equal(
      (await call(first, 'PATCH', `/api/staff/${person.id}`, { status: 'active' }, token)).status,
      200,
    )
    assert.equal(
      (
        await call(first, 'POST', '/api/auth/password-recovery', {
          email: 'convidada@example.com',
        })
      ).status,
      202,
    )
    await waitFor(() => failedAttempts(first) >= 2, 'both mails were tried and failed')
    first.child.kill('SIGKILL')
    await first.exited()
    if (location.databaseUrl) {
      // On PostgreSQL a dead sender's claim holds for its lease (5 minutes: another replica may
      // be sending that mail), so a row claimed at the kill waits that long. The test stands
      // for those minutes passing; the embedded store releases such claims at start instead.
      const database = await openDatabase({ postgresUrl: location.databaseUrl })
      await database.db
        .updateTable('mail_outbox')
        .set({ claimed_until: new Date('2000-01-01T00:00:00Z') })
        .where('state', '=', 'waiting')
        .where('claimed_by', 'is not', null)
        .execute()
      await database.close()
    }

    await catcher.start()
    const second = startServer(fixture.dist, env())
    after(() => stop(second))
    await ready(second)
    // The two mails by name: the admin's new-browser notice counts among the caught too, and
    // the reset, tried twice before the kill, waits out a longer retry delay than the others.
    await waitFor(
      () =>
        catcher.subjectsTo('nova@example.com').includes(SUBJECTS.approved) &&
        catcher.subjectsTo('convidada@example.com').includes(SUBJECTS.reset),
      'the two mails arrived',
    )
    await new Promise((resolve) => setTimeout(resolve, 2500))
    assert.deepEqual(catcher.subjectsTo('nova@example.com'), [SUBJECTS.approved])
    assert.deepEqual(catcher.subjectsTo('convidada@example.com'), [
      SUBJECTS.invitation,
      SUBJECTS.reset,
    ])
    // The admin's sign-in above came from a client with no device cookie: a new browser, told.
    assert.deepEqual(catcher.subjectsTo(ADMIN.email).slice(toAdminBefore), [
      'Painel: entrada de um navegador novo',
    ])
    assert.equal(catcher.caught.length, before + 3, 'nothing else, nothing twice')
    assert.equal(await stop(second), 0)
  })
})
