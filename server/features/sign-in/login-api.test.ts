import assert from 'node:assert/strict'
import { scryptSync } from 'node:crypto'
import { after, before, describe, it } from 'node:test'
import { ADMIN, apiFixture, errorOf, type ApiFixture } from '../../test/api-fixture'
import { testStoreName } from '../../test/test-database'
import { needsRehash, verifyPassword } from '../../accounts/passwords'

let api: ApiFixture
before(async () => {
  // The real cost: the hashing-work comparison and the rehash need the server's parameters.
  api = await apiFixture({ realPasswordHashing: true })
})
after(() => api.close())

describe(`POST /api/auth/login (${testStoreName()})`, () => {
  it('signs the first admin in and answers {token, user}, never the password hash', async () => {
    const response = await api.post('/api/auth/login', ADMIN)
    assert.equal(response.statusCode, 200)
    assert.equal(response.headers['cache-control'], 'no-store')
    const body = response.json<{ token: string; user: Record<string, unknown> }>()
    assert.match(body.token, /^[A-Za-z0-9_-]{43}$/)
    assert.deepEqual(Object.keys(body.user).sort(), [
      'createdAt',
      'email',
      'id',
      'name',
      'role',
      'status',
    ])
    assert.equal(body.user.email, ADMIN.email)
    assert.equal(body.user.role, 'admin')
    assert.equal(body.user.status, 'active')
    assert.doesNotMatch(response.body, /scrypt|password/i)
  })

  it('matches the e-mail trimmed and in any case', async () => {
    const response = await api.post('/api/auth/login', {
      email: '  CHEFE@Example.COM ',
      password: ADMIN.password,
    })
    assert.equal(response.statusCode, 200)
  })

  it('refuses a wrong password and an unknown e-mail with the same answer', async () => {
    const wrong = await api.post('/api/auth/login', {
      email: ADMIN.email,
      password: 'not-the-password',
    })
    const unknown = await api.post('/api/auth/login', {
      email: 'ninguem@example.com',
      password: 'whatever1',
    })
    assert.equal(wrong.statusCode, 401)
    assert.equal(unknown.statusCode, 401)
    assert.deepEqual(wrong.json(), unknown.json())
    assert.deepEqual(errorOf(wrong), {
      code: 'invalid_credentials',
      message: 'E-mail ou senha incorretos.',
    })
  })

  it('spends the same hashing work on an unknown e-mail as on a wrong password', async () => {
    // CPU time, not wall time: scrypt's work shows in it whatever else the machine is doing.
    const cpuOf = async (email: string) => {
      const start = process.cpuUsage()
      for (let i = 0; i < 3; i += 1)
        await api.post('/api/auth/login', { email, password: 'wrong-password' })
      const used = process.cpuUsage(start)
      return used.user + used.system
    }
    await api.addAccount({ email: 'timing@example.com', password: 'right-password' })
    const known = await cpuOf('timing@example.com')
    const unknown = await cpuOf('nobody-timing@example.com')
    assert.ok(unknown > known * 0.5, `unknown e-mail used ${unknown} µs of CPU, known ${known} µs`)
  })

  it('rehashes a password stored with older parameters at the next sign-in', async () => {
    const id = await api.addAccount({ email: 'antiga@example.com', password: 'provisoria-1' })
    const salt = Buffer.from('saltsaltsaltsalt')
    const key = scryptSync('senha-de-2019', salt, 64, { N: 1024, r: 8, p: 1 })
    await api.database.db
      .updateTable('accounts')
      .set({
        password_hash: `scrypt$1024$8$1$${salt.toString('base64')}$${key.toString('base64')}`,
      })
      .where('id', '=', id)
      .execute()
    const signIn = await api.post('/api/auth/login', {
      email: 'antiga@example.com',
      password: 'senha-de-2019',
    })
    assert.equal(signIn.statusCode, 200)
    const { password_hash: stored } = await api.database.db
      .selectFrom('accounts')
      .select('password_hash')
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
    assert.equal(needsRehash(stored), false)
    assert.equal(await verifyPassword('senha-de-2019', stored), true)
  })

  it('tells a pending or disabled account apart only to someone who knows its password', async () => {
    await api.addAccount({
      email: 'pendente@example.com',
      password: 'senha-pendente',
      status: 'pending',
    })
    await api.addAccount({
      email: 'desativada@example.com',
      password: 'senha-desativada',
      status: 'disabled',
    })

    const pending = await api.post('/api/auth/login', {
      email: 'pendente@example.com',
      password: 'senha-pendente',
    })
    assert.equal(pending.statusCode, 403)
    assert.deepEqual(errorOf(pending), {
      code: 'pending_approval',
      message: 'Seu cadastro ainda aguarda a aprovação de um administrador.',
    })
    const disabled = await api.post('/api/auth/login', {
      email: 'desativada@example.com',
      password: 'senha-desativada',
    })
    assert.equal(disabled.statusCode, 403)
    assert.equal(errorOf(disabled).code, 'account_disabled')

    const guessing = await api.post('/api/auth/login', {
      email: 'pendente@example.com',
      password: 'a-guess-123',
    })
    assert.equal(guessing.statusCode, 401)
    assert.equal(errorOf(guessing).code, 'invalid_credentials')
  })

  const badBodies: [string, { payload: string; type?: string }][] = [
    ['an empty body', { payload: '' }],
    ['broken JSON', { payload: '{"email": "a@b.c", "password": ' }],
    ['JSON null', { payload: 'null' }],
    ['an array', { payload: '[{"email":"a@b.c","password":"x"}]' }],
    ['a string', { payload: '"a@b.c"' }],
    ['a missing password', { payload: '{"email":"a@b.c"}' }],
    ['a missing e-mail', { payload: '{"password":"segredo123"}' }],
    ['an unknown field', { payload: '{"email":"a@b.c","password":"segredo123","admin":true}' }],
    ['a number for the e-mail', { payload: '{"email":42,"password":"segredo123"}' }],
    ['an object for the password', { payload: '{"email":"a@b.c","password":{"$ne":""}}' }],
    ['null fields', { payload: '{"email":null,"password":null}' }],
    ['an empty password', { payload: '{"email":"a@b.c","password":""}' }],
    [
      'a prototype-pollution attempt',
      { payload: '{"email":"a@b.c","password":"x","__proto__":{"admin":true}}' },
    ],
    [
      'a constructor-pollution attempt',
      { payload: '{"email":"a@b.c","password":"x","constructor":{"prototype":{"admin":true}}}' },
    ],
    ['a text/plain body', { payload: 'email=a@b.c&password=x', type: 'text/plain' }],
    [
      'a form body',
      { payload: 'email=a%40b.c&password=x', type: 'application/x-www-form-urlencoded' },
    ],
    [
      'a 2 KB password',
      { payload: JSON.stringify({ email: 'a@b.c', password: 'x'.repeat(2048) }) },
    ],
  ]
  for (const [what, { payload, type = 'application/json' }] of badBodies) {
    it(`answers ${what} with 400 invalid_input in the standard shape`, async () => {
      const response = await api.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload,
        headers: { 'content-type': type },
      })
      assert.equal(response.statusCode, 400, response.body)
      assert.match(String(response.headers['content-type']), /^application\/json/)
      const error = errorOf(response)
      assert.equal(error.code, 'invalid_input')
      assert.match(error.message, /\S/)
      assert.doesNotMatch(response.body, /stack|at \w+ \(|node_modules|FST_/)
    })
  }
})

describe(`sessions (${testStoreName()})`, () => {
  it('GET /api/auth/me answers the signed-in user', async () => {
    const token = await api.signIn(ADMIN.email, ADMIN.password)
    const response = await api.get('/api/auth/me', token)
    assert.equal(response.statusCode, 200)
    assert.equal(response.json<{ user: { email: string } }>().user.email, ADMIN.email)
  })

  const badTokens: [string, Record<string, string>][] = [
    ['no Authorization header', {}],
    ['an unknown token', { authorization: `Bearer ${'A'.repeat(43)}` }],
    ['a malformed token', { authorization: 'Bearer not-a-token' }],
    ['another scheme', { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` }],
    ['a token with no scheme', { authorization: 'A'.repeat(43) }],
  ]
  for (const [what, headers] of badTokens) {
    it(`GET /api/auth/me with ${what} is 401 unauthenticated`, async () => {
      const response = await api.app.inject({ method: 'GET', url: '/api/auth/me', headers })
      assert.equal(response.statusCode, 401)
      assert.equal(response.headers['www-authenticate'], 'Bearer')
      assert.equal(errorOf(response).code, 'unauthenticated')
    })
  }

  it('logout ends the session: 204, then the token is refused', async () => {
    const token = await api.signIn(ADMIN.email, ADMIN.password)
    const other = await api.signIn(ADMIN.email, ADMIN.password)
    const logout = await api.post('/api/auth/logout', undefined, {
      authorization: `Bearer ${token}`,
    })
    assert.equal(logout.statusCode, 204)
    assert.equal((await api.get('/api/auth/me', token)).statusCode, 401)
    assert.equal(
      (await api.post('/api/auth/logout', undefined, { authorization: `Bearer ${token}` }))
        .statusCode,
      401,
    )
    // Only that session: the user's other one goes on.
    assert.equal((await api.get('/api/auth/me', other)).statusCode, 200)
  })

  it('stores only the SHA-256 of a token', async () => {
    const token = await api.signIn(ADMIN.email, ADMIN.password)
    const rows = await api.database.db.selectFrom('sessions').selectAll().execute()
    assert.ok(rows.length > 0)
    assert.ok(
      rows.every((row) => /^[0-9a-f]{64}$/.test(row.token_hash) && row.token_hash !== token),
    )
  })

  it('opens sessions for SESSION_TTL (12 hours unless set)', async () => {
    await api.signIn(ADMIN.email, ADMIN.password)
    const [row] = await api.database.db
      .selectFrom('sessions')
      .selectAll()
      .orderBy('created_at', 'desc')
      .limit(1)
      .execute()
    assert.ok(row)
    const hours = (row.expires_at.getTime() - row.created_at.getTime()) / 3_600_000
    assert.ok(Math.abs(hours - 12) < 0.01, `${hours} h`)
  })

  it('refuses a session after its account is disabled', async () => {
    const id = await api.addAccount({ email: 'vai-sair@example.com', password: 'senha-vai-sair' })
    const token = await api.signIn('vai-sair@example.com', 'senha-vai-sair')
    await api.database.db
      .updateTable('accounts')
      .set({ status: 'disabled' })
      .where('id', '=', id)
      .execute()
    assert.equal((await api.get('/api/auth/me', token)).statusCode, 401)
  })

  it('refuses a session once SESSION_TTL has passed', async () => {
    await api.addAccount({ email: 'curta@example.com', password: 'senha-curta-1' })
    const token = await api.signIn('curta@example.com', 'senha-curta-1')
    await api.database.db
      .updateTable('sessions')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .execute()
    assert.equal((await api.get('/api/auth/me', token)).statusCode, 401)
  })
})
