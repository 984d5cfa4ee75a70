import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createPasswordReset, RESET_TTL_SECONDS } from '../../accounts/password-resets'
import { ADMIN, apiFixture, type ApiFixture } from '../../test/api-fixture'

let api: ApiFixture
before(async () => {
  api = await apiFixture()
})
after(() => api.close())

const linkIn = (text: string) => /\/#\/recuperar-senha\?token=([A-Za-z0-9_-]{43})/.exec(text)?.[1]
const check = (body: unknown, headers: Record<string, string> = {}) =>
  api.post('/api/auth/password-reset/check', body, headers)
const INVALID = {
  code: 'invalid_or_expired_token',
  message: 'Este link de redefinição é inválido, já foi usado ou expirou. Peça um novo.',
}

/** Asks for a reset link for the address and returns the token of the mail that brings it. */
async function mailedToken(email: string, fixture = api): Promise<string> {
  const before = fixture.mail.sent.filter((mail) => mail.to === email).length
  await fixture.post('/api/auth/password-recovery', { email })
  for (let wait = 0; wait < 40; wait += 1) {
    await fixture.deliverMail()
    const mails = fixture.mail.sent.filter((mail) => mail.to === email)
    if (mails.length > before) {
      const token = linkIn(mails.at(-1)!.text)
      assert.ok(token, `a link mailed to ${email}`)
      return token
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`no new mail to ${email}`)
}

/** A refusal that says nothing more than "this link does not work": no e-mail, no detail. */
function assertRefused(answer: Awaited<ReturnType<typeof check>>, what: string) {
  assert.equal(answer.statusCode, 400, what)
  assert.deepEqual(answer.json(), { error: INVALID }, what)
  assert.doesNotMatch(answer.body, /@/, `${what}: no address in the answer`)
}

describe('POST /api/auth/password-reset/check', () => {
  it('says a fresh link is usable and whose it is, as often as asked, without using it', async () => {
    await api.addAccount({ email: 'check@example.com', password: 'senha-antiga-1' })
    const token = await mailedToken('check@example.com')

    for (let time = 0; time < 2; time += 1) {
      const answer = await check({ token })
      assert.equal(answer.statusCode, 200)
      assert.deepEqual(answer.json(), { email: 'check@example.com' })
      assert.equal(answer.headers['cache-control'], 'no-store')
    }
    const reset = await api.post('/api/auth/password-reset', { token, password: 'senha-nova-123' })
    assert.equal(reset.statusCode, 204, 'checking did not use the link up')

    assertRefused(await check({ token }), 'a used link')
  })

  it('tells an invitation’s link the invited address, and not once a newer link replaced it', async () => {
    const adminToken = await api.signIn(ADMIN.email, ADMIN.password)
    const invited = await api.call('POST', '/api/staff/invitations', adminToken, {
      name: 'Iara Convidada',
      email: 'iara@example.com',
      role: 'staff',
    })
    assert.equal(invited.statusCode, 201, invited.body)
    const subject = 'Painel: você recebeu um convite'
    await api.mail.withSubject('iara@example.com', subject)
    await api.deliverMail()
    const first = linkIn(api.mail.sentWith('iara@example.com', subject)[0]!.text)
    assert.ok(first)
    assert.deepEqual((await check({ token: first })).json(), { email: 'iara@example.com' })

    const { user } = invited.json<{ user: { id: string } }>()
    const resent = await api.call('POST', `/api/staff/${user.id}/invitation`, adminToken)
    assert.equal(resent.statusCode, 202, resent.body)
    assertRefused(await check({ token: first }), 'the replaced invitation link')
  })

  it('refuses a link replaced by a newer one, and an expired one, as it refuses a made-up one', async () => {
    const id = await api.addAccount({ email: 'velho@example.com', password: 'senha-antiga-2' })
    const older = await mailedToken('velho@example.com')
    const newer = await mailedToken('velho@example.com')
    assertRefused(await check({ token: older }), 'the older link')
    assert.deepEqual((await check({ token: newer })).json(), { email: 'velho@example.com' })

    // Issued one second past its lifetime ago: expired now.
    const expired = await createPasswordReset(
      api.database.db,
      id,
      new Date(Date.now() - (RESET_TTL_SECONDS + 1) * 1000),
    )
    assertRefused(await check({ token: expired }), 'an expired link')
    assertRefused(await check({ token: newer }), 'the link voided by the later one')
  })

  it('refuses a well-formed token nobody was sent, and malformed ones, all alike', async () => {
    const live = await mailedToken(
      (await api.account('vizinho')).email, // a live link exists, so a near miss is tested
    )
    const nearMiss = `${live.slice(0, -1)}${live.endsWith('A') ? 'B' : 'A'}`
    for (const token of [
      'A'.repeat(43),
      nearMiss,
      live.toUpperCase() === live ? live.toLowerCase() : live.toUpperCase(),
      `${live} `,
      live.slice(0, 42),
      'abc',
      '',
    ]) {
      assertRefused(await check({ token }), JSON.stringify(token))
    }
  })

  it('each link carries 256 random bits, never stored as such: the database holds their hashes', async () => {
    const email = (await api.account('sorteio')).email
    const tokens = new Set<string>()
    for (let time = 0; time < 3; time += 1) {
      const token = await mailedToken(email)
      assert.match(token, /^[A-Za-z0-9_-]{43}$/)
      assert.equal(Buffer.from(token, 'base64url').length, 32)
      tokens.add(token)
    }
    assert.equal(tokens.size, 3, 'no two links alike')
    const rows = await api.database.db.selectFrom('password_resets').selectAll().execute()
    const stored = JSON.stringify(rows)
    for (const token of tokens) assert.ok(!stored.includes(token), 'no token stored as it is')
  })

  it('refuses a body that is not {token}', async () => {
    for (const body of [{}, { token: 1 }, { token: 'A'.repeat(43), extra: true }]) {
      const answer = await check(body)
      assert.equal(answer.statusCode, 400, JSON.stringify(body))
      assert.equal(answer.json<{ error: { code: string } }>().error.code, 'invalid_input')
    }
  })
})

describe('guessing tokens at POST /api/auth/password-reset/check', () => {
  let limited: ApiFixture
  before(async () => {
    limited = await apiFixture({ authRateLimit: 5 })
  })
  after(() => limited.close())

  it('is cut off by the burst limit, per address: nobody can walk the token space for e-mails', async () => {
    const answers = []
    for (let guess = 0; guess < 8; guess += 1) {
      answers.push(
        await limited.post('/api/auth/password-reset/check', {
          token: `${String(guess).padStart(2, '0')}${'x'.repeat(41)}`,
        }),
      )
    }
    const statuses = answers.map((answer) => answer.statusCode)
    assert.ok(
      statuses.slice(0, 5).every((status) => status === 400),
      statuses.join(' '),
    )
    assert.ok(
      statuses.slice(5).every((status) => status === 429),
      statuses.join(' '),
    )
    for (const answer of answers) assert.doesNotMatch(answer.body, /@/)
    assert.ok(Number(answers.at(-1)!.headers['retry-after']) > 0, 'says when to come back')
  })
})
