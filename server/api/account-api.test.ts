import assert from 'node:assert/strict'
import type { LightMyRequestResponse } from 'fastify'
import { after, before, describe, it } from 'node:test'
import { ADMIN, apiFixture, errorOf, type ApiFixture } from '../test/api-fixture'
import { testStoreName } from '../test/test-database'
import { RECOVERY_LIMIT } from '../features/recovery/recover-password'

let api: ApiFixture
before(async () => {
  // Many calls from one test address: the burst limit has its own test (burst-limit.test.ts).
  api = await apiFixture({ authRateLimit: 1_000_000 })
})
after(() => api.close())

const status = (email: string) =>
  api.database.db
    .selectFrom('accounts')
    .select(['status', 'role', 'name'])
    .where('email', '=', email)
    .executeTakeFirst()

/**
 * The account is written after the answer (answer-timing.test.ts says why): wait for it, as long
 * as a loaded CI machine may take to hash the password and write the row (the wait ends with it).
 */
async function registered(email: string) {
  const deadline = Date.now() + 10_000
  for (;;) {
    const row = await status(email)
    if (row || Date.now() > deadline) return row
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

describe(`POST /api/auth/register (${testStoreName()})`, () => {
  it('creates a pending staff account, e-mail trimmed and lower-cased, and answers 202 {status:"pending"}', async () => {
    const response = await api.post('/api/auth/register', {
      name: ' Ana Souza ',
      email: ' Ana@Example.com ',
      password: 'segredo-da-ana',
    })
    assert.equal(response.statusCode, 202)
    assert.deepEqual(response.json(), { status: 'pending' })
    assert.deepEqual(await registered('ana@example.com'), {
      status: 'pending',
      role: 'staff',
      name: 'Ana Souza',
    })
    const login = await api.post('/api/auth/login', {
      email: 'ana@example.com',
      password: 'segredo-da-ana',
    })
    assert.equal(errorOf(login).code, 'pending_approval')
  })

  it('answers the same for an e-mail that already has an account, and changes nothing', async () => {
    const response = await api.post('/api/auth/register', {
      name: 'Impostor',
      email: ADMIN.email,
      password: 'outra-senha-1',
    })
    assert.equal(response.statusCode, 202)
    assert.deepEqual(response.json(), { status: 'pending' })
    // A registration sent after it is written after it: once that one is in, this one was tried.
    await api.post('/api/auth/register', {
      name: 'Depois',
      email: 'depois-do-impostor@example.com',
      password: 'senha-de-depois-1',
    })
    assert.ok(await registered('depois-do-impostor@example.com'))
    assert.deepEqual(await status(ADMIN.email), {
      status: 'active',
      role: 'admin',
      name: 'Administrador',
    })
    assert.equal((await api.post('/api/auth/login', ADMIN)).statusCode, 200)
    assert.equal(
      (await api.post('/api/auth/login', { email: ADMIN.email, password: 'outra-senha-1' }))
        .statusCode,
      401,
    )
  })

  const bad: [string, Record<string, unknown>][] = [
    ['a 7-character password', { name: 'A', email: 'a@x.com', password: '1234567' }],
    ['a 129-character password', { name: 'A', email: 'a@x.com', password: 'x'.repeat(129) }],
    ['an invalid e-mail', { name: 'A', email: 'a@', password: 'segredo-123' }],
    ['a blank name', { name: '   ', email: 'a@x.com', password: 'segredo-123' }],
    ['a 101-character name', { name: 'n'.repeat(101), email: 'a@x.com', password: 'segredo-123' }],
    ['a role', { name: 'A', email: 'a@x.com', password: 'segredo-123', role: 'admin' }],
    ['a status', { name: 'A', email: 'a@x.com', password: 'segredo-123', status: 'active' }],
  ]
  for (const [what, body] of bad) {
    it(`refuses ${what} with 400 invalid_input`, async () => {
      const response = await api.post('/api/auth/register', body)
      assert.equal(response.statusCode, 400)
      assert.equal(errorOf(response).code, 'invalid_input')
      assert.equal(await status('a@x.com'), undefined)
    })
  }
})

const PASSWORD_CHANGED = 'Painel: sua senha foi alterada'

const linkIn = (text: string) =>
  /https:\/\/painel\.example\.com\/#\/recuperar-senha\?token=([A-Za-z0-9_-]{43})/.exec(text)?.[1]

describe(`password recovery and reset (${testStoreName()})`, () => {
  it('mails a single-use link that sets a new password and ends every session', async () => {
    await api.addAccount({ email: 'bia@example.com', password: 'senha-antiga-1', name: 'Bia Lima' })
    const oldSession = await api.signIn('bia@example.com', 'senha-antiga-1')

    const response = await api.post('/api/auth/password-recovery', { email: 'BIA@example.com' })
    assert.equal(response.statusCode, 202)
    const mail = await api.mail.next('bia@example.com')
    assert.equal(mail.subject, 'Painel: criar uma nova senha')
    assert.match(mail.text, /Olá, Bia Lima\./)
    assert.match(mail.text, /vale por 30 minutos/)
    const token = linkIn(mail.text)
    assert.ok(token, mail.text)

    const reset = await api.post('/api/auth/password-reset', { token, password: 'senha-nova-123' })
    assert.equal(reset.statusCode, 204)
    assert.equal(
      (await api.post('/api/auth/login', { email: 'bia@example.com', password: 'senha-antiga-1' }))
        .statusCode,
      401,
    )
    assert.equal(
      (await api.post('/api/auth/login', { email: 'bia@example.com', password: 'senha-nova-123' }))
        .statusCode,
      200,
    )
    assert.equal(
      (await api.get('/api/auth/me', oldSession)).statusCode,
      401,
      'the old session ended',
    )

    const changedMail = await api.mail.withSubject('bia@example.com', PASSWORD_CHANGED)
    assert.match(changedMail.text, /alterada com um link de nova senha enviado por e-mail/)
    assert.match(changedMail.text, /https:\/\/painel\.example\.com\/#\/recuperar-senha$/m)
    assert.match(
      changedMail.html ?? '',
      /<a href="https:\/\/painel\.example\.com\/#\/recuperar-senha">/,
    )

    const again = await api.post('/api/auth/password-reset', { token, password: 'senha-outra-123' })
    assert.equal(again.statusCode, 400)
    assert.deepEqual(errorOf(again), {
      code: 'invalid_or_expired_token',
      message: 'Este link de redefinição é inválido, já foi usado ou expirou. Peça um novo.',
    })
  })

  it('stores the reset token only as a hash', async () => {
    const rows = await api.database.db.selectFrom('password_resets').select('token_hash').execute()
    assert.ok(rows.length > 0 && rows.every((row) => /^[0-9a-f]{64}$/.test(row.token_hash)))
  })

  it('answers 202 for an unknown e-mail too, and mails nothing', async () => {
    const response = await api.post('/api/auth/password-recovery', { email: 'ninguem@example.com' })
    assert.equal(response.statusCode, 202)
    await api.deliverMail()
    // Only that address: earlier tests' security notices may still be going to their owners.
    assert.equal(api.mail.sent.filter((mail) => mail.to === 'ninguem@example.com').length, 0)
  })

  it('mails nothing to a disabled account', async () => {
    await api.addAccount({
      email: 'off@example.com',
      password: 'senha-off-123',
      status: 'disabled',
    })
    assert.equal(
      (await api.post('/api/auth/password-recovery', { email: 'off@example.com' })).statusCode,
      202,
    )
    await api.deliverMail()
    assert.equal(api.mail.sent.filter((mail) => mail.to === 'off@example.com').length, 0)
  })

  it(`mails at most ${RECOVERY_LIMIT.mailsPerAccount} links an hour to one account`, async () => {
    await api.addAccount({ email: 'muitos@example.com', password: 'senha-muitos-1' })
    for (let request = 0; request < RECOVERY_LIMIT.mailsPerAccount + 2; request += 1) {
      assert.equal(
        (await api.post('/api/auth/password-recovery', { email: 'muitos@example.com' })).statusCode,
        202,
      )
    }
    // The mails are prepared after the answers, from the outbox: every one due is sent now.
    await api.deliverMail()
    assert.equal(
      api.mail.sent.filter((mail) => mail.to === 'muitos@example.com').length,
      RECOVERY_LIMIT.mailsPerAccount,
    )
  })

  it('refuses an expired link', async () => {
    await api.addAccount({ email: 'tarde@example.com', password: 'senha-tarde-1' })
    await api.post('/api/auth/password-recovery', { email: 'tarde@example.com' })
    const token = linkIn((await api.mail.next('tarde@example.com')).text)
    await api.database.db
      .updateTable('password_resets')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .execute()
    const response = await api.post('/api/auth/password-reset', {
      token,
      password: 'senha-nova-456',
    })
    assert.equal(errorOf(response).code, 'invalid_or_expired_token')
    assert.equal(
      (await api.post('/api/auth/login', { email: 'tarde@example.com', password: 'senha-tarde-1' }))
        .statusCode,
      200,
    )
  })

  const badResets: [string, Record<string, unknown>, string][] = [
    [
      'an unknown token',
      { token: 'A'.repeat(43), password: 'senha-nova-789' },
      'invalid_or_expired_token',
    ],
    [
      'a malformed token',
      { token: '../../etc', password: 'senha-nova-789' },
      'invalid_or_expired_token',
    ],
    ['a short new password', { token: 'A'.repeat(43), password: 'curta' }, 'invalid_input'],
    ['no token', { password: 'senha-nova-789' }, 'invalid_input'],
    ['a numeric token', { token: 12345, password: 'senha-nova-789' }, 'invalid_input'],
  ]
  for (const [what, body, code] of badResets) {
    it(`refuses a reset with ${what} (400 ${code})`, async () => {
      const response = await api.post('/api/auth/password-reset', body)
      assert.equal(response.statusCode, 400)
      assert.equal(errorOf(response).code, code)
    })
  }
})

describe(`changing one's own password (${testStoreName()})`, () => {
  it('needs the current password, keeps this session and ends the others', async () => {
    await api.addAccount({ email: 'troca@example.com', password: 'senha-troca-1' })
    const here = await api.signIn('troca@example.com', 'senha-troca-1')
    const elsewhere = await api.signIn('troca@example.com', 'senha-troca-1')
    const auth = { authorization: `Bearer ${here}` }

    const wrong = await api.post(
      '/api/auth/password',
      { currentPassword: 'nao-e-essa', newPassword: 'senha-troca-2' },
      auth,
    )
    assert.equal(wrong.statusCode, 400)
    assert.deepEqual(errorOf(wrong), {
      code: 'wrong_password',
      message: 'A senha atual não confere.',
    })

    const changed = await api.post(
      '/api/auth/password',
      { currentPassword: 'senha-troca-1', newPassword: 'senha-troca-2' },
      auth,
    )
    assert.equal(changed.statusCode, 204)
    // The owner is told, with the way back in case it was not them; the wrong try told nothing.
    const mail = await api.mail.withSubject('troca@example.com', PASSWORD_CHANGED)
    assert.match(mail.text, /foi alterada na tela Minha conta, a partir do endereço 127\.0\.0\.1\./)
    assert.match(mail.text, /Se não foi você, crie uma nova senha agora/)
    assert.equal(api.mail.sentWith('troca@example.com', PASSWORD_CHANGED).length, 1)
    assert.equal((await api.get('/api/auth/me', here)).statusCode, 200)
    assert.equal((await api.get('/api/auth/me', elsewhere)).statusCode, 401)
    assert.equal(
      (await api.post('/api/auth/login', { email: 'troca@example.com', password: 'senha-troca-2' }))
        .statusCode,
      200,
    )
  })

  it('is only for a signed-in user', async () => {
    const response = await api.post('/api/auth/password', {
      currentPassword: 'x',
      newPassword: 'senha-troca-3',
    })
    assert.equal(response.statusCode, 401)
  })
})

const bearer = (token: string) => ({ authorization: `Bearer ${token}` })
const recoveryLink = async (email: string) => {
  api.mail.sent.splice(0)
  assert.equal((await api.post('/api/auth/password-recovery', { email })).statusCode, 202)
  return linkIn((await api.mail.next(email)).text)
}

describe(`reset links are voided (${testStoreName()})`, () => {
  it('using a newer link voids the older one', async () => {
    await api.addAccount({ email: 'dois-links@example.com', password: 'senha-inicial-1' })
    const older = await recoveryLink('dois-links@example.com')
    const newer = await recoveryLink('dois-links@example.com')
    assert.notEqual(older, newer)
    const used = await api.post('/api/auth/password-reset', {
      token: newer,
      password: 'nova-senha-forte-1',
    })
    assert.equal(used.statusCode, 204)
    const stale = await api.post('/api/auth/password-reset', {
      token: older,
      password: 'outra-senha-forte-2',
    })
    assert.equal(stale.statusCode, 400)
    assert.equal(errorOf(stale).code, 'invalid_or_expired_token')
  })

  it('issuing a newer link voids the older one at once', async () => {
    await api.addAccount({ email: 'reenvio@example.com', password: 'senha-inicial-1' })
    const older = await recoveryLink('reenvio@example.com')
    await recoveryLink('reenvio@example.com')
    const stale = await api.post('/api/auth/password-reset', {
      token: older,
      password: 'nova-senha-forte-1',
    })
    assert.equal(errorOf(stale).code, 'invalid_or_expired_token')
  })

  it('changing the password in "Minha conta" voids outstanding links', async () => {
    await api.addAccount({ email: 'mudou@example.com', password: 'senha-inicial-1' })
    const link = await recoveryLink('mudou@example.com')
    const token = await api.signIn('mudou@example.com', 'senha-inicial-1')
    const changed = await api.post(
      '/api/auth/password',
      { currentPassword: 'senha-inicial-1', newPassword: 'nova-senha-forte-1' },
      bearer(token),
    )
    assert.equal(changed.statusCode, 204)
    const stale = await api.post('/api/auth/password-reset', {
      token: link,
      password: 'outra-senha-forte-2',
    })
    assert.equal(errorOf(stale).code, 'invalid_or_expired_token')
  })
})

describe(`wrong current passwords are counted (${testStoreName()})`, () => {
  it('a stolen session cannot guess the password: 429 with Retry-After after the free tries', async () => {
    await api.addAccount({ email: 'roubada@example.com', password: 'senha-inicial-1' })
    const token = await api.signIn('roubada@example.com', 'senha-inicial-1')
    const statuses: number[] = []
    let last: LightMyRequestResponse | undefined
    for (let guess = 0; guess < 15; guess += 1) {
      last = await api.app.inject({
        method: 'POST',
        url: '/api/auth/password',
        payload: { currentPassword: `chute-${guess}-xx`, newPassword: 'nova-senha-forte-1' },
        headers: bearer(token),
        remoteAddress: '203.0.113.44',
      })
      statuses.push(last.statusCode)
    }
    assert.deepEqual(statuses, [...Array<number>(5).fill(400), ...Array<number>(10).fill(429)])
    assert.ok(Number(last?.headers['retry-after']) > 0)
    assert.equal(errorOf(last!).code, 'too_many_attempts')
  })
})

describe(`the password policy on every route that sets one (${testStoreName()})`, () => {
  const refused = (response: LightMyRequestResponse, message: RegExp) => {
    assert.equal(response.statusCode, 400, response.body)
    assert.equal(errorOf(response).code, 'invalid_input')
    assert.match(errorOf(response).message, message)
  }
  const common = /muito comum ou já apareceu em vazamentos/

  it('registration refuses "12345678", "senha123" and the e-mail as password, in pt-BR', async () => {
    const register = (password: string) =>
      api.post('/api/auth/register', { name: 'Bia', email: 'bia-nova@example.com', password })
    refused(await register('12345678'), common)
    refused(await register('senha123'), common)
    refused(await register('Bia-Nova@Example.com'), /não pode ser o seu e-mail/)
    assert.equal(await status('bia-nova@example.com'), undefined)
  })

  it('reset refuses a common password and the current one', async () => {
    await api.addAccount({ email: 'politica@example.com', password: 'senha-atual-forte-1' })
    const link = await recoveryLink('politica@example.com')
    refused(
      await api.post('/api/auth/password-reset', { token: link, password: 'senha123' }),
      common,
    )
    refused(
      await api.post('/api/auth/password-reset', { token: link, password: 'senha-atual-forte-1' }),
      /diferente da atual/,
    )
    // The link still works for a good password.
    assert.equal(
      (await api.post('/api/auth/password-reset', { token: link, password: 'outra-senha-forte-2' }))
        .statusCode,
      204,
    )
  })

  it('"Minha conta" refuses the current password as the new one, and a common one', async () => {
    await api.addAccount({ email: 'mesma@example.com', password: 'senha-atual-forte-1' })
    const token = await api.signIn('mesma@example.com', 'senha-atual-forte-1')
    const change = (newPassword: string) =>
      api.post(
        '/api/auth/password',
        { currentPassword: 'senha-atual-forte-1', newPassword },
        bearer(token),
      )
    refused(await change('senha-atual-forte-1'), /diferente da atual/)
    refused(await change('12345678'), common)
  })
})

describe(`names and text that cannot be stored (${testStoreName()})`, () => {
  it('refuses a name with a right-to-left override or nothing visible (400)', async () => {
    for (const name of ['Ana\u202eadmin', '\u200b\u200b', '\u3164']) {
      const response = await api.post('/api/auth/register', {
        name,
        email: `nome-${name.codePointAt(0)}@example.com`,
        password: 'senha-bem-forte-1',
      })
      assert.equal(response.statusCode, 400, JSON.stringify(name))
      assert.equal(errorOf(response).code, 'invalid_input')
    }
  })

  it('stores a name trimmed and in NFC', async () => {
    await api.post('/api/auth/register', {
      name: '  Jose\u0301  ',
      email: 'jose-nfc@example.com',
      password: 'senha-bem-forte-1',
    })
    assert.equal((await registered('jose-nfc@example.com'))?.name, 'José')
  })

  it('answers 400, not 500, to NUL and control characters in any field, signed in or not', async () => {
    const token = await api.signIn(ADMIN.email, ADMIN.password)
    const cases: [string, Record<string, unknown>, Record<string, string>?][] = [
      ['/api/auth/login', { email: 'a\u0000@b.c', password: 'x' }],
      ['/api/auth/login', { email: 'a@b.c', password: 'x\u0000y' }],
      [
        '/api/auth/register',
        { name: 'A\u0000', email: 'nul@example.com', password: 'senha-bem-forte-1' },
      ],
      ['/api/auth/password-recovery', { email: 'a\u0000@b.c' }],
      [
        '/api/auth/password-reset',
        { token: 'A'.repeat(42) + '\u0000', password: 'senha-bem-forte-1' },
      ],
      [
        '/api/auth/password',
        { currentPassword: 'x\u001b', newPassword: 'senha-bem-forte-1' },
        bearer(token),
      ],
    ]
    for (const [url, body, headers] of cases) {
      const response = await api.post(url, body, headers)
      assert.equal(response.statusCode, 400, `${url} ${JSON.stringify(body)}: ${response.body}`)
      assert.equal(errorOf(response).code, 'invalid_input')
    }
    assert.equal(
      api.logLines().filter((line) => line.level === 50).length,
      0,
      'no error was logged',
    )
  })
})
