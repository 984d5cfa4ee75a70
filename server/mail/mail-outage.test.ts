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
import { SmtpCatcher, subjectOf } from '../test/smtp-catcher'
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

    await catcher.start()
    const second = startServer(fixture.dist, env())
    after(() => stop(second))
    await ready(second)
    // The two mails by name: the admin's new-browser notice counts among the caught too, and
    // the reset, tried twice before the kill, waits out a longer retry delay than the others.
    // On PostgreSQL a row the dead sender held waits out its lease (30 s: it cannot know the
    // sender is dead), and the embedded store releases such claims at start: a minute is the
    // bound either way (the goal: no mail later than that).
    await waitFor(
      () =>
        catcher.subjectsTo('nova@example.com').includes(SUBJECTS.approved) &&
        catcher.subjectsTo('convidada@example.com').includes(SUBJECTS.reset),
      'the two mails arrived',
      60_000,
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

  it('a replica killed (-9) in the middle of an SMTP exchange: another sends its mails within a minute, each once', async (t) => {
    if (!location.databaseUrl) {
      t.skip('replicas share a PostgreSQL (TEST_DATABASE_URL); the embedded store has one process')
      return
    }
    await catcher.stop()
    await catcher.start()
    const sentBefore = catcher.caught.length
    catcher.holding = true
    const dying = startServer(fixture.dist, env())
    after(() => stop(dying))
    await ready(dying)
    const token = await signIn(dying)
    const invited = ['r1', 'r2', 'r3', 'r4', 'r5'].map((name) => `${name}@example.com`)
    for (const email of invited) {
      const answer = await call(
        dying,
        'POST',
        '/api/staff/invitations',
        { name: 'Réplica', email, role: 'staff' },
        token,
      )
      assert.equal(answer.status, 201)
    }
    // Its sender has claimed the rows and is in the middle of the first one's SMTP exchange.
    await waitFor(() => catcher.held > 0, 'the first replica began sending')
    const survivor = startServer(fixture.dist, env())
    after(() => stop(survivor))
    await ready(survivor)
    dying.child.kill('SIGKILL')
    await dying.exited()
    catcher.release()
    // What the dying sender held (the mail in its SMTP exchange, and whatever else it had
    // claimed) waits out a lease it no longer renews (30 s); the rest goes at once. A minute is
    // the goal's bound for every one of them: the outbox has nothing left waiting by then.
    const database = await openDatabase({ postgresUrl: location.databaseUrl })
    try {
      const waiting = async () =>
        (
          await database.db
            .selectFrom('mail_outbox')
            .select('id')
            .where('state', '=', 'waiting')
            .execute()
        ).length
      const deadline = Date.now() + 60_000
      while ((await waiting()) > 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 200))
      }
      assert.equal(await waiting(), 0, 'every mail sent within a minute of the kill')
    } finally {
      await database.close()
    }
    await new Promise((resolve) => setTimeout(resolve, 2500))
    for (const email of invited) {
      assert.deepEqual(catcher.subjectsTo(email), [SUBJECTS.invitation], email)
    }
    // Nothing twice: no recipient got one subject twice.
    const sent = catcher.caught
      .slice(sentBefore)
      .map((mail) => `${mail.to.join(',')}: ${subjectOf(mail.raw)}`)
    assert.equal(new Set(sent).size, sent.length, sent.join('\n'))
    assert.equal(await stop(survivor), 0)
  })
})
