import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Dashboard, MyActivity } from '../../../common/api/dashboard'
import type { RecoveryCodes, SessionList, TotpSetup } from '../../../common/api/me'
import { totpCode } from '../../accounts/totp'
import { recordAudit } from '../../audit-log/record-audit'
import { ADMIN, apiFixture, type ApiFixture } from '../../test/api-fixture'
import { testStoreName } from '../../test/test-database'
import { notifyAdminsOfRegistrations } from '../registration/registration-notices'

let api: ApiFixture
before(async () => {
  api = await apiFixture()
})
after(() => api.close())

describe(`/api/dashboard (${testStoreName()})`, () => {
  it('gives an admin accounts by status, pending ones, 14 days of sign-ins and recent events', async () => {
    await api.addAccount({
      email: 'p1@example.com',
      password: 'senha-p1-123',
      name: 'P1',
      status: 'pending',
    })
    await api.addAccount({ email: 'd1@example.com', password: 'senha-d1-123', status: 'disabled' })
    const token = await api.signIn(ADMIN.email, ADMIN.password)
    await api.post('/api/auth/login', { email: ADMIN.email, password: 'errada-1234' })
    // Outside the 14 days: not counted.
    await recordAudit(api.database.db, {
      type: 'sign_in',
      at: new Date(Date.now() - 20 * 86_400_000),
    })
    const response = await api.get('/api/dashboard', token)
    assert.equal(response.statusCode, 200)
    const dashboard = response.json<Dashboard>()
    assert.deepEqual(dashboard.accounts, { active: 1, invited: 0, pending: 1, disabled: 1 })
    assert.deepEqual(
      dashboard.pending.map((item) => item.name),
      ['P1'],
    )
    assert.equal(dashboard.signIns.length, 14)
    const today = new Date().toISOString().slice(0, 10)
    assert.equal(dashboard.signIns.at(-1)!.day, today)
    assert.deepEqual(
      dashboard.signIns.reduce(
        (sum, day) => [sum[0]! + day.succeeded, sum[1]! + day.failed],
        [0, 0],
      ),
      [1, 1],
    )
    assert.equal(dashboard.recent[0]!.type, 'sign_in_failed')
    assert.equal(dashboard.lastSignInAt, null, 'the current sign-in is not "the last one"')
  })

  it('tells everyone their previous sign-in and the failed attempts since', async () => {
    await api.addAccount({ email: 'eu@example.com', password: 'senha-eu-1234' })
    await api.post(
      '/api/auth/login',
      { email: 'eu@example.com', password: 'senha-eu-1234' },
      {
        'user-agent':
          'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0',
      },
    )
    await api.post('/api/auth/login', { email: 'eu@example.com', password: 'errada-1234' })
    await api.post('/api/auth/login', { email: 'eu@example.com', password: 'errada-5678' })
    const token = await api.signIn('eu@example.com', 'senha-eu-1234')
    const response = await api.get('/api/dashboard/me', token)
    assert.equal(response.statusCode, 200)
    const mine = response.json<MyActivity>()
    // In the few words the session list uses, not the raw header a person cannot read.
    assert.equal(mine.lastSignIn?.userAgent, 'Firefox no Windows')
    assert.equal(mine.failedSince, 2)
    assert.equal(mine.mfa, false)
    assert.equal((await api.get('/api/dashboard', token)).statusCode, 403)
    assert.equal((await api.get('/api/dashboard/me')).statusCode, 401)
  })

  it('gives a person, in one answer, their last sign-ins, open sessions and second factors', async () => {
    const me = await api.account('inicio')
    const firefox =
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0'
    const iphone =
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1'
    await api.signIn(me.email, me.password, { 'user-agent': firefox })
    await api.signIn(me.email, me.password, { 'user-agent': iphone })
    const chrome =
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
    const token = await api.signIn(me.email, me.password, { 'user-agent': chrome })
    // Someone else's sign-ins are not mine.
    const other = await api.account('outra')
    await api.signIn(other.email, other.password, { 'user-agent': firefox })

    const read = async () => {
      const response = await api.get('/api/dashboard/me', token)
      assert.equal(response.statusCode, 200, response.body)
      assert.equal(response.headers['cache-control'], 'no-store')
      return response.json<MyActivity>()
    }
    let mine = await read()
    assert.deepEqual(
      mine.signIns.map((signIn) => signIn.userAgent),
      ['Chrome no Linux', 'Safari no iPhone', 'Firefox no Windows'],
      'newest first, the browser in words',
    )
    const times = mine.signIns.map((signIn) => Date.parse(signIn.at))
    assert.deepEqual(
      times,
      [...times].sort((a, b) => b - a),
    )
    assert.equal(mine.openSessions, 3)
    assert.deepEqual(mine.secondFactors, { totp: false, passkeys: 0, recoveryCodesLeft: 0 })
    assert.equal(mine.mfa, false)

    // One session ended elsewhere: two open.
    const { sessions } = (await api.get('/api/me/sessions', token)).json<SessionList>()
    const another = sessions.find((session) => !session.current)!
    assert.equal(
      (await api.call('DELETE', `/api/me/sessions/${another.id}`, token)).statusCode,
      204,
    )
    assert.equal((await read()).openSessions, 2)

    // An authenticator app on: the factors say so, with the ten recovery codes.
    const { secret } = (await api.call('POST', '/api/me/totp', token)).json<TotpSetup>()
    const confirmed = await api.call('POST', '/api/me/totp/confirm', token, {
      code: totpCode(secret, new Date()),
    })
    assert.equal(confirmed.json<RecoveryCodes>().recoveryCodes.length, 10)
    mine = await read()
    assert.deepEqual(mine.secondFactors, { totp: true, passkeys: 0, recoveryCodesLeft: 10 })
    assert.equal(mine.mfa, true)

    // More sign-ins than the list holds: the newest five.
    for (let time = 0; time < 3; time += 1) {
      const step = await api.passwordStep(me.email, me.password)
      const code = confirmed.json<RecoveryCodes>().recoveryCodes[time]!
      assert.equal(
        (await api.post('/api/auth/login/mfa', { challenge: step.challenge, code })).statusCode,
        200,
      )
    }
    mine = await read()
    assert.equal(mine.signIns.length, 5)
    assert.equal(mine.secondFactors.recoveryCodesLeft, 7)
    assert.equal(mine.openSessions, 5)
    assert.equal(mine.signIns.at(-1)?.userAgent, 'Safari no iPhone')
  })

  it('mails every active admin about new registrations at once, then at most once a minute', async () => {
    const adminMails = () =>
      api.mail.sent.filter((mail) => mail.to === ADMIN.email && /cadastro/.test(mail.subject))
    const before = adminMails().length
    await api.post('/api/auth/register', {
      name: 'Recém Chegada',
      email: 'recem@example.com',
      password: 'senha-recem-1',
    })
    const first = await api.mail.next(ADMIN.email)
    assert.match(first.text, /Recém Chegada <recem@example\.com>/)
    assert.match(first.text, /#\/equipe\?status=pending/)
    await api.post('/api/auth/register', {
      name: 'Segunda',
      email: 'segunda@example.com',
      password: 'senha-segunda-1',
    })
    await notifyAdminsOfRegistrations({
      db: api.database.db,
      outbox: api.outbox,
      log: api.app.log,
      config: { publicUrl: 'https://x' },
    })
    await api.deliverMail()
    assert.equal(adminMails().length, before + 1, 'no second mail within the minute')
    // A minute later the held-back registration goes out, alone (it waited 15 minutes once,
    // while docs/single-sign-on.md promised a minute).
    await notifyAdminsOfRegistrations(
      {
        db: api.database.db,
        outbox: api.outbox,
        log: api.app.log,
        config: { publicUrl: 'https://x' },
      },
      new Date(Date.now() + 61_000),
    )
    await api.deliverMail()
    const mails = adminMails()
    assert.equal(mails.length, before + 2)
    assert.match(mails.at(-1)!.text, /Segunda/)
    assert.doesNotMatch(mails.at(-1)!.text, /Recém/)
  })
})
