import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { DeletionRequestList } from '../../../common/api/account-deletion'
import type { TotpSetup } from '../../../common/api/me'
import { totpCode } from '../../accounts/totp'
import type { Database } from '../../db/database'
import { ADMIN, apiFixture, errorOf, type ApiFixture } from '../../test/api-fixture'
import { TestClock } from '../../test/test-clock'
import { storedDatabase, type StoredDatabase } from '../../test/stored-database'
import { testStoreName } from '../../test/test-database'
import { pseudonymOf } from './anonymise-account'

/**
 * THE test of issue 30 §4: a person's e-mails, names and CPF written through every path the
 * panel has, then anonymised; the database's own bytes (the SQLite file and its WAL as they are
 * when the answer comes, with no VACUUM, or a pg_dump of PostgreSQL) hold none of them, and the
 * audit log still counts their events under the pseudonym.
 */

const FIRST_NAME = 'Zuleica Quintanilha'
const LATER_NAME = 'Zuleica Qualhadas Anonimizável'
const EMAIL = 'zuleica.quintanilha@example.com'
const NEW_EMAIL = 'zuleica.nova.caixa@example.com'
const PASSWORD = 'senha-da-zuleica-1'
const CPF = '52998224725'
/** What must be gone: searched for in any case. */
const PERSONAL = ['zuleica', 'quintanilha', 'qualhadas', 'anonimizável', EMAIL, NEW_EMAIL, CPF]

const clock = new TestClock()
let api: ApiFixture
let stored: StoredDatabase
let database: Database
before(async () => {
  stored = await storedDatabase('painel-anon-')
  database = stored.database
  api = await apiFixture({ database, authRateLimit: 1_000_000, clock: clock.now })
})
after(async () => {
  await api.close()
  await stored.remove()
})

/** The database's whole content as text, as an attacker with the file or a dump would read it. */
const storedBytes = () => stored.storedText()

const found = (text: string) =>
  PERSONAL.filter((word) => text.toLowerCase().includes(word.toLowerCase()))

describe(`anonymising an account (${testStoreName()})`, () => {
  it('leaves none of the person’s data in the database, and the audit log still counts their events', async () => {
    // A failed sign-in with the e-mail before it had an account: the log quotes the e-mail.
    await api.post('/api/auth/login', { email: EMAIL, password: 'qualquer-coisa' })
    // Registration: the admins' mail names the person.
    const registered = await api.post('/api/auth/register', {
      name: FIRST_NAME,
      email: EMAIL,
      password: PASSWORD,
    })
    assert.equal(registered.statusCode, 202)
    const adminToken = await api.signIn(ADMIN.email, ADMIN.password)
    let id = ''
    for (let i = 0; i < 50 && !id; i += 1) {
      const list = await api.get(`/api/staff?q=${encodeURIComponent(EMAIL)}`, adminToken)
      id = list.json<{ items: { id: string }[] }>().items[0]?.id ?? ''
      if (!id) await new Promise((resolve) => setTimeout(resolve, 50))
    }
    assert.ok(id, 'registered')
    assert.equal(
      (await api.call('PATCH', `/api/staff/${id}`, adminToken, { status: 'active' })).statusCode,
      200,
    )

    // Sign-ins (a second browser: a notice), failures, sessions with address and browser.
    const headers = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0 Safari/537.36' }
    const token = await api.signIn(EMAIL, PASSWORD, headers)
    await api.signIn(EMAIL, PASSWORD, headers)
    await api.post('/api/auth/login', { email: EMAIL, password: 'senha-errada-1' })
    // A name corrected, a second factor, an e-mail change waiting, a reset link, a copy of the data.
    assert.equal((await api.call('PATCH', '/api/me', token, { name: LATER_NAME })).statusCode, 200)
    const setup = (await api.call('POST', '/api/me/totp', token)).json<TotpSetup>()
    await api.call('POST', '/api/me/totp/confirm', token, {
      code: totpCode(setup.secret, clock.now()),
    })
    await api.call('POST', '/api/me/email', token, { email: NEW_EMAIL, password: PASSWORD })
    await api.post('/api/auth/password-recovery', { email: EMAIL })
    assert.equal((await api.get('/api/me/export', token)).statusCode, 200)
    // A gov.br link: its subject is a CPF.
    await database.db
      .insertInto('provider_links')
      .values({
        id: crypto.randomUUID(),
        provider: 'govbr',
        issuer: 'https://sso.acesso.gov.br',
        subject: CPF,
        account_id: id,
      })
      .execute()
    await api.deliverMail()
    // And one more mail still waiting in the outbox when the account is anonymised.
    await api.post('/api/auth/password-recovery', { email: EMAIL })

    const asked = await api.call('POST', '/api/me/deletion-request', token, { password: PASSWORD })
    assert.equal(asked.statusCode, 202, asked.body)
    const requests = (
      await api.get('/api/staff/deletion-requests', adminToken)
    ).json<DeletionRequestList>()
    assert.deepEqual(
      requests.requests.map((r) => r.account),
      [{ id, name: LATER_NAME, email: EMAIL }],
    )
    assert.deepEqual(
      found(await storedBytes()).sort(),
      [...PERSONAL].sort(),
      'all of it was written',
    )

    const theirs = async () =>
      database.db
        .selectFrom('audit_events')
        .selectAll()
        .where((eb) => eb.or([eb('account_id', '=', id), eb('actor_id', '=', id)]))
        .execute()
    const before = await theirs()
    assert.ok(before.length >= 10, `${before.length} events`)

    const anonymised = await api.call('POST', `/api/staff/${id}/anonymise`, adminToken)
    assert.equal(anonymised.statusCode, 204, anonymised.body)

    // Nothing personal left in the bytes: looked at before anything below types the e-mail again.
    const left = await storedBytes()
    assert.deepEqual(
      found(left),
      [],
      // Where it was left: the dump's lines (COPY rows) that hold it.
      `nothing personal is left:\n${left
        .split('\n')
        .filter((line) => found(line).length > 0)
        .slice(0, 5)
        .join('\n')
        .slice(0, 2000)}`,
    )

    // Sessions ended at once; the account is gone; the request is decided.
    assert.equal((await api.get('/api/auth/me', token)).statusCode, 401)
    assert.equal(
      (await api.post('/api/auth/login', { email: EMAIL, password: PASSWORD })).statusCode,
      401,
    )
    assert.deepEqual(
      (await api.get('/api/staff/deletion-requests', adminToken)).json<DeletionRequestList>()
        .requests,
      [],
    )

    // The log still counts every event, under the pseudonym, plus the anonymisation's own (and
    // the waiting recovery mail's, when the outbox's sender, which runs on its own, composed it
    // between the count above and the anonymisation).
    const after = await theirs()
    const added = after.filter((event) => !before.some((earlier) => earlier.id === event.id))
    assert.equal(after.length, before.length + added.length, 'no event of theirs went')
    assert.deepEqual(
      added.map((event) => event.type).filter((type) => type !== 'reset_requested'),
      ['anonymised'],
    )
    const pseudonym = pseudonymOf(id)
    for (const event of after) {
      if (event.account_id === id) {
        assert.equal(event.account_name, pseudonym.name)
        assert.equal(event.account_email, pseudonym.email)
      }
      if (event.actor_id === id) assert.equal(event.ip, null)
    }
    const audit = await api.get(`/api/audit?account=${id}`, adminToken)
    assert.ok(audit.json<{ events: unknown[] }>().events.length > 0)
  })

  it('refuses one’s own account, an unknown id and anyone but an admin; an admin may go', async () => {
    const adminToken = await api.signIn(ADMIN.email, ADMIN.password)
    const me = (await api.get('/api/auth/me', adminToken)).json<{ user: { id: string } }>().user
    assert.equal(
      errorOf(await api.call('POST', `/api/staff/${me.id}/anonymise`, adminToken)).code,
      'own_account',
    )
    // Two active admins: one may anonymise the other, and the last one is never left alone
    // (writeAccountChange's rule, as for a demotion: staff-api.test.ts covers its races).
    const second = await api.person('anon', { role: 'admin' })
    const gone = await api.call('POST', `/api/staff/${second.id}/anonymise`, adminToken)
    assert.equal(gone.statusCode, 204, gone.body)
    assert.equal((await api.get('/api/auth/me', second.token)).statusCode, 401)
    const missing = await api.call(
      'POST',
      `/api/staff/${crypto.randomUUID()}/anonymise`,
      adminToken,
    )
    assert.equal(missing.statusCode, 404)
    const staff = await api.person('anon')
    assert.equal(
      (await api.call('POST', `/api/staff/${me.id}/anonymise`, staff.token)).statusCode,
      403,
    )
    assert.equal((await api.get('/api/staff/deletion-requests', staff.token)).statusCode, 403)
    assert.equal(
      errorOf(
        await api.call('POST', '/api/me/deletion-request', staff.token, { password: 'errada-1' }),
      ).code,
      'wrong_password',
    )
  })
})
