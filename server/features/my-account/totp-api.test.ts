import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { SignedIn, SignedInWithCode } from '../../../common/api/auth'
import type { MfaStatus, RecoveryCodes, TotpSetup } from '../../../common/api/me'
import { totpCode } from '../../accounts/totp'
import { ADMIN, apiFixture, errorOf, type ApiFixture } from '../../test/api-fixture'
import { TestClock } from '../../test/test-clock'
import { testStoreName } from '../../test/test-database'

const clock = new TestClock()
let api: ApiFixture
before(async () => {
  api = await apiFixture({ authRateLimit: 1_000_000, clock: clock.now })
})
after(() => api.close())

/** Turns TOTP on for a person: the secret and the recovery codes. */
async function withTotp() {
  const someone = await api.person('totp')
  const setup = await api.call('POST', '/api/me/totp', someone.token)
  assert.equal(setup.statusCode, 200, setup.body)
  const { secret, otpauthUrl } = setup.json<TotpSetup>()
  assert.match(otpauthUrl, /^otpauth:\/\/totp\/Painel:totp\d+%40example\.com\?/)
  assert.match(otpauthUrl, new RegExp(`secret=${secret}`))
  const confirm = await api.call('POST', '/api/me/totp/confirm', someone.token, {
    code: totpCode(secret, clock.now()),
  })
  assert.equal(confirm.statusCode, 200, confirm.body)
  const { recoveryCodes } = confirm.json<RecoveryCodes>()
  // The next code a test types is for a later step than the one that confirmed.
  clock.advance(30_000)
  return { ...someone, secret, recoveryCodes }
}

const codeStep = (challenge: string, code: string) =>
  api.post('/api/auth/login/mfa', { challenge, code })

describe(`TOTP setup under /api/me (${testStoreName()})`, () => {
  it('turns on with a code of the new secret: 10 distinct recovery codes, status says so, audited', async () => {
    const ana = await withTotp()
    assert.equal(ana.recoveryCodes.length, 10)
    assert.equal(new Set(ana.recoveryCodes).size, 10)
    for (const code of ana.recoveryCodes) assert.match(code, /^[a-z2-9]{4}(-[a-z2-9]{4}){3}$/)
    const status = await api.call('GET', '/api/me/mfa', ana.token)
    assert.deepEqual(status.json<MfaStatus>(), { totp: true, recoveryCodesLeft: 10, passkeys: 0 })
    // Stored hashed, the secret never shown again.
    const stored = await api.database.db
      .selectFrom('recovery_codes')
      .select('code_hash')
      .where('account_id', '=', ana.id)
      .execute()
    assert.ok(stored.every((row) => !ana.recoveryCodes.includes(row.code_hash)))
    const again = await api.call('POST', '/api/me/totp', ana.token)
    assert.equal(again.statusCode, 409)
    assert.equal(errorOf(again).code, 'mfa_already_on')
    assert.equal((await api.events(ana.id, 'mfa_enabled')).length, 1)
  })

  it('refuses a wrong confirmation code, and a confirmation with nothing pending', async () => {
    const bia = await api.person('totp')
    const nothing = await api.call('POST', '/api/me/totp/confirm', bia.token, { code: '123456' })
    assert.equal(errorOf(nothing).code, 'no_pending_totp')
    const { secret } = (await api.call('POST', '/api/me/totp', bia.token)).json<TotpSetup>()
    const wrong = await api.call('POST', '/api/me/totp/confirm', bia.token, {
      code: totpCode(secret, new Date(clock.now().getTime() + 10 * 60_000)),
    })
    assert.equal(wrong.statusCode, 400)
    assert.equal(errorOf(wrong).code, 'invalid_code')
    const status = (await api.call('GET', '/api/me/mfa', bia.token)).json<MfaStatus>()
    assert.equal(status.totp, false, 'not active until confirmed')
    const login = await api.post('/api/auth/login', { email: bia.email, password: bia.password })
    assert.ok(login.json<SignedIn>().token, 'a pending secret asks for no code')
  })

  it('needs a session for every call, and validates the bodies', async () => {
    for (const [method, url, payload] of [
      ['GET', '/api/me/mfa'],
      ['POST', '/api/me/totp'],
      ['POST', '/api/me/totp/confirm', { code: '123456' }],
      ['DELETE', '/api/me/totp', { password: 'x' }],
      ['POST', '/api/me/recovery-codes', { password: 'x' }],
    ] as const) {
      const response = await api.call(method, url, undefined, payload)
      assert.equal(response.statusCode, 401, `${method} ${url}`)
    }
    const carla = await api.person('totp')
    const missing = await api.call('POST', '/api/me/totp/confirm', carla.token, {})
    assert.equal(missing.statusCode, 400)
    const extra = await api.call('DELETE', '/api/me/totp', carla.token, { password: 'x', y: 1 })
    assert.equal(extra.statusCode, 400)
  })
})

describe(`Signing in with a second factor (${testStoreName()})`, () => {
  it('asks for a code after the password, accepts the current one once, and refuses its replay', async () => {
    const ana = await withTotp()
    const first = await api.passwordStep(ana.email, ana.password)
    assert.deepEqual(first.methods, ['totp', 'recovery_code'])
    const code = totpCode(ana.secret, clock.now())
    const signedIn = await codeStep(first.challenge, code)
    assert.equal(signedIn.statusCode, 200, signedIn.body)
    const { token, user } = signedIn.json<SignedIn>()
    assert.equal(user.email, ana.email)
    assert.equal((await api.get('/api/auth/me', token)).statusCode, 200)
    // The challenge is used up, and the same code on a new one is a replay.
    assert.equal(errorOf(await codeStep(first.challenge, code)).code, 'challenge_expired')
    const second = await api.passwordStep(ana.email, ana.password)
    const replay = await codeStep(second.challenge, code)
    assert.equal(replay.statusCode, 401)
    assert.equal(errorOf(replay).code, 'invalid_code')
    const [event] = await api.events(ana.id, 'sign_in').then((rows) => rows.slice(-1))
    // A second browser without the device cookie: a new browser for the account (security-notices/).
    assert.deepEqual(JSON.parse(event!.details), {
      method: 'totp',
      new_browser: true,
      notice: true,
    })
  })

  it('accepts a code one step early or late (clock drift), not two', async () => {
    const ana = await withTotp()
    const now = clock.now().getTime()
    const late = await api.passwordStep(ana.email, ana.password)
    assert.equal(
      (await codeStep(late.challenge, totpCode(ana.secret, new Date(now + 30_000)))).statusCode,
      200,
    )
    clock.advance(90_000)
    const early = await api.passwordStep(ana.email, ana.password)
    const tooOld = totpCode(ana.secret, new Date(clock.now().getTime() - 60_000))
    assert.equal(errorOf(await codeStep(early.challenge, tooOld)).code, 'invalid_code')
    const oneBack = totpCode(ana.secret, new Date(clock.now().getTime() - 30_000))
    assert.equal((await codeStep(early.challenge, oneBack)).statusCode, 200)
  })

  it('takes a recovery code once (any case, spaces or dashes), and says how many are left', async () => {
    const ana = await withTotp()
    const [code] = ana.recoveryCodes
    const typed = ` ${code!.toUpperCase().replaceAll('-', ' ')} `
    const first = await api.passwordStep(ana.email, ana.password)
    assert.equal((await codeStep(first.challenge, typed)).statusCode, 200)
    const second = await api.passwordStep(ana.email, ana.password)
    assert.equal(errorOf(await codeStep(second.challenge, code!)).code, 'invalid_code')
    const status = (await api.call('GET', '/api/me/mfa', ana.token)).json<MfaStatus>()
    assert.equal(status.recoveryCodesLeft, 9)
    const [used] = await api.events(ana.id, 'recovery_code_used')
    assert.deepEqual(JSON.parse(used!.details), { left: 9, notice: true })
  })

  it('answers a sign-in with a recovery code with how many are left; a TOTP sign-in says nothing of them', async () => {
    const ana = await withTotp()
    const left: number[] = []
    for (const code of ana.recoveryCodes.slice(0, 3)) {
      const step = await api.passwordStep(ana.email, ana.password)
      const answer = await codeStep(step.challenge, code)
      assert.equal(answer.statusCode, 200, answer.body)
      const body = answer.json<SignedInWithCode>()
      assert.equal(body.user.email, ana.email)
      left.push(body.recoveryCodesLeft!)
    }
    assert.deepEqual(left, [9, 8, 7])
    // Two requests racing with the same last-but-one code: one is in, and it is told the count.
    const racing = ana.recoveryCodes[3]!
    const [one, two] = await Promise.all([
      api.passwordStep(ana.email, ana.password),
      api.passwordStep(ana.email, ana.password),
    ])
    const answers = await Promise.all([
      codeStep(one.challenge, racing),
      codeStep(two.challenge, racing),
    ])
    const statuses = answers.map((answer) => answer.statusCode).sort()
    assert.deepEqual(statuses, [200, 401])
    const won = answers.find((answer) => answer.statusCode === 200)!
    assert.equal(won.json<SignedInWithCode>().recoveryCodesLeft, 6)

    const app = await api.passwordStep(ana.email, ana.password)
    const withApp = await codeStep(app.challenge, totpCode(ana.secret, clock.now()))
    assert.equal(withApp.statusCode, 200, withApp.body)
    assert.equal('recoveryCodesLeft' in withApp.json<SignedInWithCode>(), false)
    // The password alone, for an account without a second factor: nothing of them either.
    const plain = await api.account('sem-fator')
    const signedIn = await api.post('/api/auth/login', {
      email: plain.email,
      password: plain.password,
    })
    assert.equal('recoveryCodesLeft' in signedIn.json<SignedIn>(), false)
  })

  it('says 0 left after the last recovery code', async () => {
    const ana = await withTotp()
    let last: SignedInWithCode | undefined
    for (const code of ana.recoveryCodes) {
      const step = await api.passwordStep(ana.email, ana.password)
      last = (await codeStep(step.challenge, code)).json<SignedInWithCode>()
    }
    assert.equal(last?.recoveryCodesLeft, 0)
  })

  it('allows 5 codes per challenge, and a challenge lives 5 minutes', async () => {
    const ana = await withTotp()
    const tries = await api.passwordStep(ana.email, ana.password)
    for (let i = 0; i < 5; i += 1) {
      assert.equal(errorOf(await codeStep(tries.challenge, '000000')).code, 'invalid_code')
    }
    const sixth = await codeStep(tries.challenge, totpCode(ana.secret, clock.now()))
    assert.equal(sixth.statusCode, 401)
    assert.deepEqual(errorOf(sixth), {
      code: 'challenge_expired',
      message: 'A verificação expirou ou teve tentativas demais. Entre novamente com sua senha.',
    })
    const failures = await api.events(ana.id, 'sign_in_failed')
    assert.equal(failures.length, 5)

    // Those five count as failed sign-ins: a new one waits (the test below); another person
    // shows the lifetime.
    const bia = await withTotp()
    const slow = await api.passwordStep(bia.email, bia.password)
    clock.advance(5 * 60_000)
    const late = await codeStep(slow.challenge, totpCode(bia.secret, clock.now()))
    assert.equal(errorOf(late).code, 'challenge_expired')
    assert.equal(errorOf(await codeStep('nao-existe', '123456')).code, 'challenge_expired')
  })

  it('counts wrong codes with the sign-in limits: the account from this address waits', async () => {
    const ana = await withTotp()
    const { challenge } = await api.passwordStep(ana.email, ana.password)
    for (let i = 0; i < 5; i += 1) {
      assert.equal((await codeStep(challenge, '000000')).statusCode, 401)
    }
    // Five failures from this address (sign-in-limits.ts: 5 free): the next try waits, whether
    // it is a password or a code.
    const next = await api.post('/api/auth/login', { email: ana.email, password: ana.password })
    assert.equal(next.statusCode, 429, next.body)
    assert.ok(Number(next.headers['retry-after']) > 0)
    assert.equal(errorOf(next).code, 'too_many_attempts')
  })

  it('refuses bad input on /login/mfa as a 400', async () => {
    assert.equal((await api.post('/api/auth/login/mfa', { challenge: 'x' })).statusCode, 400)
    assert.equal(
      (await api.post('/api/auth/login/mfa', { challenge: 'x', code: 'y'.repeat(100) })).statusCode,
      400,
    )
  })
})

describe(`Turning TOTP off and new recovery codes (${testStoreName()})`, () => {
  it('turns off with the password (a wrong one is a counted failure), and sign-in needs no code', async () => {
    const ana = await withTotp()
    const wrong = await api.call('DELETE', '/api/me/totp', ana.token, { password: 'nao-e-a-senha' })
    assert.equal(wrong.statusCode, 400)
    assert.equal(errorOf(wrong).code, 'wrong_password')
    assert.equal((await api.events(ana.id, 'sign_in_failed')).length, 1)
    assert.equal(
      (await api.call('DELETE', '/api/me/totp', ana.token, { password: ana.password })).statusCode,
      204,
    )
    const login = await api.post('/api/auth/login', { email: ana.email, password: ana.password })
    assert.ok(login.json<SignedIn>().token)
    assert.equal((await api.events(ana.id, 'mfa_disabled')).length, 1)
  })

  it('regenerates recovery codes with the password: the old ones stop working', async () => {
    const ana = await withTotp()
    const fresh = await api.call('POST', '/api/me/recovery-codes', ana.token, {
      password: ana.password,
    })
    assert.equal(fresh.statusCode, 200, fresh.body)
    const { recoveryCodes } = fresh.json<RecoveryCodes>()
    const step = await api.passwordStep(ana.email, ana.password)
    assert.equal(
      errorOf(await codeStep(step.challenge, ana.recoveryCodes[0]!)).code,
      'invalid_code',
    )
    assert.equal((await codeStep(step.challenge, recoveryCodes[0]!)).statusCode, 200)
    assert.equal((await api.events(ana.id, 'recovery_codes_regenerated')).length, 1)
    const bruno = await api.person('totp')
    const none = await api.call('POST', '/api/me/recovery-codes', bruno.token, {
      password: bruno.password,
    })
    assert.equal(none.statusCode, 409)
  })

  it("one person's calls never touch another's factor", async () => {
    const ana = await withTotp()
    const bruno = await api.person('totp')
    assert.deepEqual((await api.call('GET', '/api/me/mfa', bruno.token)).json<MfaStatus>(), {
      totp: false,
      recoveryCodesLeft: 0,
      passkeys: 0,
    })
    // Bruno turning "his" TOTP off with his password leaves Ana's on.
    await api.call('DELETE', '/api/me/totp', bruno.token, { password: bruno.password })
    assert.equal((await api.call('GET', '/api/me/mfa', ana.token)).json<MfaStatus>().totp, true)
  })

  it("an admin removes someone's second factor (lost phone), audited with who did it", async () => {
    const ana = await withTotp()
    const admin = await api.signIn(ADMIN.email, ADMIN.password)
    const listed = await api.call(
      'GET',
      `/api/staff?q=${encodeURIComponent(ana.email)}&mfa=true`,
      admin,
    )
    assert.equal(listed.json<{ total: number }>().total, 1, 'Equipe shows the second factor')
    const removed = await api.call('DELETE', `/api/staff/${ana.id}/mfa`, admin)
    assert.equal(removed.statusCode, 204)
    assert.equal((await api.call('GET', '/api/me/mfa', ana.token)).json<MfaStatus>().totp, false)
    const relisted = await api.call(
      'GET',
      `/api/staff?q=${encodeURIComponent(ana.email)}&mfa=false`,
      admin,
    )
    assert.equal(relisted.json<{ total: number }>().total, 1)
    const login = await api.post('/api/auth/login', { email: ana.email, password: ana.password })
    assert.ok(login.json<SignedIn>().token)
    const [event] = (await api.events(ana.id, 'mfa_disabled')).slice(-1)
    assert.notEqual(event!.actor_id, ana.id)
    assert.deepEqual(JSON.parse(event!.details), {
      by: 'admin',
      totp: true,
      passkeys: 0,
      notice: true,
    })
    // Ana is told, by whom, and how to take the account back if she did not ask for it.
    const mail = await api.mail.withSubject(
      ana.email,
      'Painel: sua verificação em duas etapas foi desativada',
    )
    assert.match(mail.text, /desativou a verificação em duas etapas da sua conta/)
    assert.match(mail.text, /\/#\/recuperar-senha$/m)
    // Removing nothing (no factor left) mails nothing more.
    assert.equal((await api.call('DELETE', `/api/staff/${ana.id}/mfa`, admin)).statusCode, 204)
    assert.equal(
      api.mail.sentWith(ana.email, 'Painel: sua verificação em duas etapas foi desativada').length,
      1,
    )
    // Not by a non-admin.
    const bruno = await api.person('totp')
    assert.equal(
      (await api.call('DELETE', `/api/staff/${ana.id}/mfa`, bruno.token)).statusCode,
      403,
    )
  })
})
