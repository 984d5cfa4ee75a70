import assert from 'node:assert/strict'
import type { LightMyRequestResponse } from 'fastify'
import type { ErrorBody } from '../http/errors'
import { after, before, describe, it } from 'node:test'
import { ADMIN, apiFixture, type ApiFixture } from '../test/api-fixture'
import { testStoreName } from '../test/test-database'
import { RECOVERY_LIMIT } from './auth-service'

let api: ApiFixture
before(async () => {
  api = await apiFixture()
})
after(() => api.close())

const errorOf = (response: LightMyRequestResponse) => response.json<ErrorBody>().error
const status = (email: string) =>
  api.database.db
    .selectFrom('accounts')
    .select(['status', 'role', 'name'])
    .where('email', '=', email)
    .executeTakeFirst()

describe(`POST /api/auth/register (${testStoreName()})`, () => {
  it('creates a pending staff account, e-mail trimmed and lower-cased, and answers 202 {status:"pending"}', async () => {
    const response = await api.post('/api/auth/register', {
      name: ' Ana Souza ',
      email: ' Ana@Example.com ',
      password: 'segredo-da-ana',
    })
    assert.equal(response.statusCode, 202)
    assert.deepEqual(response.json(), { status: 'pending' })
    assert.deepEqual(await status('ana@example.com'), {
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

describe(`password recovery and reset (${testStoreName()})`, () => {
  const linkIn = (text: string) =>
    /https:\/\/painel\.example\.com\/#\/recuperar-senha\?token=([A-Za-z0-9_-]{43})/.exec(text)?.[1]

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
    const before = api.mail.sent.length
    const response = await api.post('/api/auth/password-recovery', { email: 'ninguem@example.com' })
    assert.equal(response.statusCode, 202)
    await new Promise((resolve) => setTimeout(resolve, 50))
    assert.equal(api.mail.sent.length, before)
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
    await assert.rejects(api.mail.next('off@example.com'), /no mail/)
  })

  it(`mails at most ${RECOVERY_LIMIT.mailsPerAccount} links an hour to one account`, async () => {
    await api.addAccount({ email: 'muitos@example.com', password: 'senha-muitos-1' })
    for (let request = 0; request < RECOVERY_LIMIT.mailsPerAccount + 2; request += 1) {
      assert.equal(
        (await api.post('/api/auth/password-recovery', { email: 'muitos@example.com' })).statusCode,
        202,
      )
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
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
