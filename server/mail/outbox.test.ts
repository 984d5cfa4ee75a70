import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import pino from 'pino'
import { freePortSync } from '../../scripts/free-port'
import { connect, openDatabase, type Database } from '../db/database'
import type { FastifyBaseLogger } from 'fastify'
import { ADMIN, apiFixture, bearer, type ApiFixture } from '../test/api-fixture'
import { until } from '../test/helpers'
import { TestClock } from '../test/test-clock'
import { testDatabase, testDatabaseLocation, testStoreName } from '../test/test-database'
import type { Mailer, MailMessage } from './mailer'
import { MailOutbox, retryDelayMs, type RetryPolicy } from './outbox'

const silent = pino({ level: 'silent' }) as unknown as FastifyBaseLogger
const message = (to: string, subject = 'Assunto'): MailMessage => ({
  to,
  subject,
  text: `Olá, ${to}.`,
})

/** Fails while `down` is true, as an SMTP server that is restarting; keeps what it accepted. */
class OutageMailer implements Mailer {
  down = true
  readonly sent: MailMessage[] = []
  async send(mail: MailMessage): Promise<void> {
    if (this.down) throw new Error('connect ECONNREFUSED 127.0.0.1:25')
    this.sent.push(mail)
  }
  close(): void {}
}

const rowsOf = (database: Database) =>
  database.db.selectFrom('mail_outbox').selectAll().orderBy('created_at').execute()

describe(`the mail outbox (${testStoreName()})`, () => {
  let database: Database
  before(async () => {
    database = await testDatabase()
  })
  after(() => database.close())

  const clean = () => database.db.deleteFrom('mail_outbox').execute()

  it('a mail queued in a transaction that rolls back is not there; one that commits is', async () => {
    await clean()
    const outbox = new MailOutbox({ ...database, mailer: new OutageMailer(), log: silent })
    await assert.rejects(
      database.db.transaction().execute(async (trx) => {
        await outbox.queue(trx, 'invitation', message('desfeito@example.com'))
        throw new Error('the change failed after its mail was queued')
      }),
      /the change failed/,
    )
    assert.deepEqual(await rowsOf(database), [])
    await database.db.transaction().execute(async (trx) => {
      await outbox.queue(trx, 'invitation', message('feito@example.com'))
    })
    const [row] = await rowsOf(database)
    assert.equal(row?.recipient, 'feito@example.com')
    assert.equal(row?.state, 'waiting')
  })

  it('retries with doubling waits (capped) and keeps the outcome once sent', async () => {
    await clean()
    const clock = new TestClock()
    const mailer = new OutageMailer()
    const retry: RetryPolicy = {
      firstDelayMs: 10_000,
      maxDelayMs: 30_000,
      giveUpAfterMs: 3_600_000,
    }
    assert.deepEqual(
      [1, 2, 3, 4, 5].map((attempts) => retryDelayMs(retry, attempts)),
      [10_000, 20_000, 30_000, 30_000, 30_000],
    )
    const outbox = new MailOutbox({ ...database, mailer, log: silent, now: clock.now, retry })
    await database.db.transaction().execute((trx) => outbox.queue(trx, 'x', message('a@x.com')))

    assert.equal(await outbox.runOnce(), 1, 'first attempt')
    let [row] = await rowsOf(database)
    assert.equal(row?.attempts, 1)
    assert.match(row?.last_error ?? '', /ECONNREFUSED/)
    assert.equal(row.next_attempt_at.getTime() - clock.now().getTime(), 10_000)
    assert.equal(await outbox.runOnce(), 0, 'not due before its wait')
    clock.advance(10_000)
    assert.equal(await outbox.runOnce(), 1, 'second attempt, after 10 s')
    clock.advance(19_000)
    assert.equal(await outbox.runOnce(), 0, 'the second wait is 20 s')
    clock.advance(1_000)
    mailer.down = false
    assert.equal(await outbox.runOnce(), 1, 'third attempt')
    ;[row] = await rowsOf(database)
    assert.equal(row?.state, 'sent')
    assert.equal(row?.attempts, 3)
    assert.match(row?.last_error ?? '', /ECONNREFUSED/, 'the last failure is kept')
    assert.equal(row?.finished_at?.getTime(), clock.now().getTime())
    assert.equal(row?.text, null, 'the body (live links) is not kept once sent')
    assert.deepEqual(
      mailer.sent.map((mail) => mail.to),
      ['a@x.com'],
    )
    clock.advance(3_600_000)
    assert.equal(await outbox.runOnce(), 0, 'a sent mail is never sent again')
  })

  it('gives up after the bound, keeping attempts, the last error and when', async () => {
    await clean()
    const clock = new TestClock()
    const mailer = new OutageMailer()
    const retry = { firstDelayMs: 60_000, maxDelayMs: 600_000, giveUpAfterMs: 3_600_000 }
    const outbox = new MailOutbox({ ...database, mailer, log: silent, now: clock.now, retry })
    const queuedAt = clock.now().getTime()
    await database.db.transaction().execute((trx) => outbox.queue(trx, 'x', message('b@x.com')))
    let attempts = 0
    for (let step = 0; step < 100; step += 1) {
      attempts += await outbox.runOnce()
      const [row] = await rowsOf(database)
      if (row?.state !== 'waiting') break
      clock.advance(row.next_attempt_at.getTime() - clock.now().getTime())
    }
    const [row] = await rowsOf(database)
    assert.equal(row?.state, 'failed')
    assert.equal(row?.attempts, attempts)
    // 1, 2, 4, 8, 10, 10, 10, 10 minutes… the next wait would pass the hour.
    assert.equal(attempts, 9)
    assert.ok(row.finished_at!.getTime() - queuedAt <= 3_600_000)
    assert.match(row?.last_error ?? '', /ECONNREFUSED/)
    assert.equal(row?.text, null)
    clock.advance(86_400_000)
    mailer.down = false
    assert.equal(await outbox.runOnce(), 0, 'a failed mail stays failed')
    assert.deepEqual(mailer.sent, [])
  })

  it("a crashed sender's claim runs out within the lease, and then another sender sends the mail", async () => {
    await clean()
    const clock = new TestClock()
    // It claims the mail, begins to send it, and never ends: a process that died mid-send.
    let began = () => {}
    const sending = new Promise<void>((resolve) => (began = resolve))
    const hanging: Mailer = {
      send: () => {
        began()
        return new Promise(() => {})
      },
      close() {},
    }
    const crashed = new MailOutbox({ ...database, mailer: hanging, log: silent, now: clock.now })
    const mailer = new OutageMailer()
    mailer.down = false
    const other = new MailOutbox({ ...database, mailer, log: silent, now: clock.now })
    await database.db.transaction().execute((trx) => crashed.queue(trx, 'x', message('c@x.com')))
    void crashed.runOnce()
    await sending
    assert.equal(await other.runOnce(), 0, 'claimed by the first sender')
    clock.advance(20_000)
    assert.equal(await other.runOnce(), 0, 'still within its lease')
    clock.advance(11_000) // 31 s: the 30 s lease, never renewed by a sender that died, ran out
    assert.equal(await other.runOnce(), 1, 'the lease ran out')
    assert.equal(mailer.sent.length, 1)
    assert.equal((await rowsOf(database))[0]?.state, 'sent')
  })

  it('a live sender renews its claims: a slow SMTP server never hands its rows to another', async () => {
    await clean()
    const clock = new TestClock()
    // Each send waits here until the test lets it finish, once. (One shared "finish" called on a
    // timer finished the first mail twice when the second had not started yet on a busy machine,
    // and the test then waited for ever on the second.)
    const unfinished: (() => void)[] = []
    const delivered: string[] = []
    const slow: Mailer = {
      send: (mail) =>
        new Promise<void>((resolve) => {
          unfinished.push(() => {
            delivered.push(mail.to)
            resolve()
          })
        }),
      close() {},
    }
    const sender = new MailOutbox({ ...database, mailer: slow, log: silent, now: clock.now })
    const mailer = new OutageMailer()
    mailer.down = false
    const other = new MailOutbox({ ...database, mailer, log: silent, now: clock.now })
    await database.db.transaction().execute(async (trx) => {
      await sender.queue(trx, 'x', message('r1@x.com'))
      await sender.queue(trx, 'x', message('r2@x.com'))
    })
    const run = sender.runOnce()
    // The first mail is at SMTP: runOnce claimed both rows before it began to send.
    await until(() => unfinished.length > 0, 5)
    assert.ok((await rowsOf(database)).every((row) => row.claimed_by !== null))
    for (let step = 0; step < 4; step++) {
      clock.advance(20_000) // 80 s in all: far past one lease
      await sender.renewClaims() // what its timer does every renewMs
      assert.equal(await other.runOnce(), 0, `still held after ${(step + 1) * 20} s`)
    }
    for (let finished = 0; finished < 2; finished += 1) {
      await until(() => unfinished.length > 0, 5)
      unfinished.shift()!()
    }
    assert.equal(await run, 2)
    assert.deepEqual(delivered.sort(), ['r1@x.com', 'r2@x.com'])
    assert.deepEqual(mailer.sent, [])
    assert.ok((await rowsOf(database)).every((row) => row.state === 'sent'))
  })

  it('the log says what became of a row that went away: deleted before its mail went out, or while it did', async () => {
    await clean()
    const lines: { msg: string; fate?: string }[] = []
    const log = pino(
      { level: 'info' },
      { write: (line: string) => void lines.push(JSON.parse(line) as { msg: string }) },
    ) as unknown as FastifyBaseLogger
    const deleteRowOf = (to: string) =>
      database.db.deleteFrom('mail_outbox').where('recipient', '=', to).execute()
    // As an anonymisation does, in the middle of the SMTP exchange.
    const sent: string[] = []
    const mailer: Mailer = {
      async send(mail) {
        await deleteRowOf(mail.to)
        sent.push(mail.to)
      },
      close() {},
    }
    const outbox = new MailOutbox({ ...database, mailer, log })
    // Deleted between its claim and its sending: composed by a Preparer that sees it go.
    outbox.prepare('recusa', async (row) => {
      await deleteRowOf(row.recipient)
      return message(row.recipient, 'Recusa')
    })
    await database.db.transaction().execute(async (trx) => {
      await outbox.queueRequest(trx, 'recusa', 'antes@x.com', {})
      await outbox.queue(trx, 'x', message('durante@x.com'))
    })
    await outbox.runOnce()
    assert.deepEqual(sent, ['durante@x.com'], 'the one deleted before it went out was not sent')
    // In either order: the two rows were due at the same time.
    const said = lines.map((line) => [line.fate, line.msg]).sort()
    assert.deepEqual(said, [
      [
        'deleted',
        'mail not sent: its row was deleted before it went out (an anonymisation or a removed account takes its mails with it)',
      ],
      [
        'deleted',
        'mail sent, then its row was deleted (an anonymisation or a removed account took its mails): nothing will send it again',
      ],
    ])
    assert.ok(lines.every((line) => !/claim had run out/.test(line.msg)))
  })

  it('two senders at once never send the same mail', async () => {
    await clean()
    // On PostgreSQL each sender has a pool of its own, as two replicas would.
    const location = process.env.TEST_DATABASE_URL ? await testDatabaseLocation() : null
    const shared = location?.databaseUrl
      ? await openDatabase({ postgresUrl: location.databaseUrl })
      : database
    const second = location?.databaseUrl
      ? { db: connect({ postgresUrl: location.databaseUrl }), engine: shared.engine }
      : database
    try {
      const delivered: string[] = []
      const slowMailer: Mailer = {
        async send(mail) {
          await new Promise((resolve) => setTimeout(resolve, Math.random() * 3))
          delivered.push(mail.to)
        },
        close() {},
      }
      const senders = [
        new MailOutbox({ ...shared, mailer: slowMailer, log: silent }),
        new MailOutbox({ db: second.db, engine: second.engine, mailer: slowMailer, log: silent }),
      ]
      const count = 120
      await shared.db.transaction().execute(async (trx) => {
        for (let i = 0; i < count; i += 1) {
          await senders[0]!.queue(trx, 'x', message(`p${i}@x.com`))
        }
      })
      const drain = async (sender: MailOutbox) => {
        while ((await sender.runOnce()) > 0) {
          // until nothing is left to claim
        }
      }
      // Three loops per sender, all racing for the same rows.
      await Promise.all(senders.flatMap((sender) => [drain(sender), drain(sender), drain(sender)]))
      assert.equal(delivered.length, count, 'each mail sent once')
      assert.equal(new Set(delivered).size, count)
      const states = await shared.db.selectFrom('mail_outbox').select('state').execute()
      assert.ok(states.every((row) => row.state === 'sent'))
    } finally {
      if (location) {
        await second.db.destroy()
        await shared.close()
        await location.cleanup()
      }
    }
  })
})

describe(`the mail each change causes is in the outbox when its answer comes (${testStoreName()})`, () => {
  let api: ApiFixture
  let metricsPort: number
  const mailer = new OutageMailer()
  before(async () => {
    metricsPort = freePortSync()
    api = await apiFixture({
      mailer,
      metricsPort,
      host: '127.0.0.1',
      authRateLimit: 1_000_000,
      mailTiming: { wakeDelayMs: [0, 1], pollMs: 50 },
    })
  })
  after(() => api.close())

  it('with SMTP down every mail waits in the outbox, and goes out once SMTP is back', async () => {
    const token = await api.signIn(ADMIN.email, ADMIN.password)
    const call = (method: 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
      api.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) })
    const pending = await api.account('pendente', { status: 'pending' })
    const refused = await api.account('recusado', { status: 'pending' })
    const staff = await api.account('equipe')
    assert.equal(
      (await call('PATCH', `/api/staff/${pending.id}`, { status: 'active' })).statusCode,
      200,
    )
    assert.equal(
      (await call('DELETE', `/api/staff/${refused.id}`, { reason: 'Duplicado' })).statusCode,
      204,
    )
    assert.equal((await call('POST', `/api/staff/${staff.id}/password-reset`)).statusCode, 202)
    const invited = 'convidada@example.com'
    const invitation = await call('POST', '/api/staff/invitations', {
      name: 'Convidada',
      email: invited,
      role: 'staff',
    })
    assert.equal(invitation.statusCode, 201)
    assert.equal(
      (await api.post('/api/auth/password-recovery', { email: pending.email })).statusCode,
      202,
    )
    const unknown = 'ninguem-aqui@example.com'
    assert.equal(
      (await api.post('/api/auth/password-recovery', { email: unknown })).statusCode,
      202,
    )
    const kinds = (await rowsOf(api.database)).map((row) => row.kind)
    for (const kind of ['approved', 'refused', 'admin_reset', 'invitation', 'password_recovery']) {
      assert.ok(kinds.includes(kind), `${kind} is queued: ${kinds.join(', ')}`)
    }
    // The sender tries, fails, and keeps them waiting.
    const waitFor = async (done: () => Promise<boolean>, what: string) => {
      for (let tries = 0; tries < 200 && !(await done()); tries += 1) {
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
      assert.ok(await done(), what)
    }
    await waitFor(
      async () => (await rowsOf(api.database)).every((row) => row.attempts > 0),
      'every mail was tried',
    )
    assert.equal(mailer.sent.length, 0)
    assert.ok(
      (await rowsOf(api.database)).every((row) => row.recipient !== unknown),
      'a recovery request for an e-mail without an account leaves no row',
    )
    const scrape = async () => (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text()
    const metrics = await scrape()
    assert.match(metrics, /^painel_mails_waiting 5$/m)
    assert.match(metrics, /^painel_mails_failed 0$/m)
    assert.match(metrics, /^painel_mails_total\{result="failed"\} [1-9]/m)

    mailer.down = false
    // Retries are due 10 s later: move them now rather than wait (the app's sender polls).
    await api.database.db
      .updateTable('mail_outbox')
      .set({ next_attempt_at: new Date(0) })
      .where('state', '=', 'waiting')
      .execute()
    await waitFor(
      async () => (await rowsOf(api.database)).every((row) => row.state === 'sent'),
      'every mail was sent',
    )
    const subjects = mailer.sent.map((mail) => `${mail.to}: ${mail.subject}`).sort()
    assert.equal(subjects.length, 5, subjects.join('\n'))
    assert.equal(new Set(subjects).size, 5, 'none twice')
    assert.ok(subjects.includes(`${invited}: Painel: você recebeu um convite`))
    assert.ok(subjects.includes(`${pending.email}: Painel: criar uma nova senha`))
    assert.ok(subjects.includes(`${staff.email}: Painel: criar uma nova senha`))
    assert.match(await scrape(), /^painel_mails_waiting 0$/m)
  })
})
