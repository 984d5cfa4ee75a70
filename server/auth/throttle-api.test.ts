import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { apiFixture, type ApiFixture } from '../test/api-fixture'
import { testStoreName } from '../test/test-database'
import { LIMITS, signInKeys } from './auth-service'

let api: ApiFixture
before(async () => {
  api = await apiFixture()
})
after(() => api.close())

const login = (email: string, password: string, remoteAddress = '198.51.100.7') =>
  api.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password },
    remoteAddress,
  })

describe(`brute-force limits on sign-in (${testStoreName()})`, () => {
  it(`locks an account for 15 minutes after ${LIMITS.failuresPerAccount} failed sign-ins, even with the right password`, async () => {
    await api.addAccount({ email: 'alvo@example.com', password: 'senha-certa-1' })
    for (let attempt = 1; attempt <= LIMITS.failuresPerAccount; attempt += 1) {
      // From different addresses: the account's own count is what trips.
      const response = await login(
        'alvo@example.com',
        `tentativa-${attempt}`,
        `203.0.113.${attempt}`,
      )
      assert.equal(response.statusCode, 401, `attempt ${attempt}`)
    }
    const locked = await login('alvo@example.com', 'senha-certa-1', '203.0.113.200')
    assert.equal(locked.statusCode, 429)
    const retryAfter = Number(locked.headers['retry-after'])
    assert.ok(retryAfter > 14 * 60 && retryAfter <= 15 * 60, `Retry-After: ${retryAfter}`)
    assert.deepEqual(locked.json(), {
      error: {
        code: 'too_many_attempts',
        message: 'Muitas tentativas. Tente novamente em 15 minutos.',
      },
    })

    // Once the window has passed, the right password works again and the count starts over.
    await api.database.db
      .updateTable('auth_throttle')
      .set({ window_started_at: new Date(Date.now() - 16 * 60_000) })
      .where('key', '=', signInKeys.account('alvo@example.com'))
      .execute()
    assert.equal((await login('alvo@example.com', 'senha-certa-1')).statusCode, 200)
  })

  it('a password reset through the mailed link lifts a lock on the account', async () => {
    await api.addAccount({ email: 'travada@example.com', password: 'senha-antiga-1' })
    for (let attempt = 1; attempt <= LIMITS.failuresPerAccount; attempt += 1) {
      await login('travada@example.com', `tentativa-${attempt}`, `203.0.113.${100 + attempt}`)
    }
    assert.equal((await login('travada@example.com', 'senha-antiga-1')).statusCode, 429)

    const asked = await api.app.inject({
      method: 'POST',
      url: '/api/auth/password-recovery',
      payload: { email: 'travada@example.com' },
      remoteAddress: '203.0.113.150',
    })
    assert.equal(asked.statusCode, 202)
    const mail = await api.mail.next('travada@example.com')
    const token = /recuperar-senha\?token=([A-Za-z0-9_-]{43})/.exec(mail.text)?.[1]
    assert.ok(token, mail.text)
    const reset = await api.app.inject({
      method: 'POST',
      url: '/api/auth/password-reset',
      payload: { token, password: 'senha-nova-123' },
      remoteAddress: '203.0.113.150',
    })
    assert.equal(reset.statusCode, 204)
    assert.equal((await login('travada@example.com', 'senha-nova-123')).statusCode, 200)
  })

  it('counts failures per e-mail as written, whatever the case', async () => {
    await api.addAccount({ email: 'caixa@example.com', password: 'senha-certa-2' })
    for (let attempt = 1; attempt <= LIMITS.failuresPerAccount; attempt += 1) {
      await login(
        attempt % 2 ? 'CAIXA@example.com' : ' caixa@EXAMPLE.com',
        `x-${attempt}`,
        `192.0.2.${attempt}`,
      )
    }
    assert.equal((await login('caixa@example.com', 'senha-certa-2')).statusCode, 429)
  })

  it('a successful sign-in clears the account’s count', async () => {
    await api.addAccount({ email: 'esquecida@example.com', password: 'senha-certa-3' })
    for (let round = 0; round < 2; round += 1) {
      for (let attempt = 1; attempt < LIMITS.failuresPerAccount; attempt += 1) {
        await login('esquecida@example.com', `errada-${attempt}`, `192.0.2.${100 + attempt}`)
      }
      assert.equal((await login('esquecida@example.com', 'senha-certa-3')).statusCode, 200)
    }
  })

  it(`stops an address after ${LIMITS.failuresPerAddress} failures across accounts`, async () => {
    const address = '198.51.100.99'
    for (let attempt = 1; attempt <= LIMITS.failuresPerAddress; attempt += 1) {
      const response = await login(`spray-${attempt}@example.com`, 'senha-qualquer', address)
      assert.equal(response.statusCode, 401, `attempt ${attempt}`)
    }
    const blocked = await login('spray-next@example.com', 'senha-qualquer', address)
    assert.equal(blocked.statusCode, 429)
    assert.ok(Number(blocked.headers['retry-after']) > 0)
    // Another address is not affected.
    assert.equal(
      (await login('spray-next@example.com', 'senha-qualquer', '198.51.100.100')).statusCode,
      401,
    )
  })

  it('limits bursts of auth requests per address, with Retry-After', async () => {
    const address = '192.0.2.250'
    let response
    for (let request = 0; request <= 60; request += 1) {
      response = await api.app.inject({
        method: 'POST',
        url: '/api/auth/password-recovery',
        payload: { email: 'ninguem@example.com' },
        remoteAddress: address,
      })
    }
    assert.equal(response?.statusCode, 429)
    assert.ok(Number(response?.headers['retry-after']) > 0)
    assert.equal(response?.json<{ error: { code: string } }>().error.code, 'too_many_attempts')
  })

  it('counts every auth call of an address together: a burst on one route closes the others', async () => {
    const address = '192.0.2.251'
    for (let request = 0; request < 60; request += 1) {
      const response = await api.app.inject({
        method: 'POST',
        url: '/api/auth/password-recovery',
        payload: { email: 'ninguem@example.com' },
        remoteAddress: address,
      })
      assert.equal(response.statusCode, 202)
    }
    const signIn = await login('ninguem@example.com', 'senha-qualquer', address)
    assert.equal(signIn.statusCode, 429)
    const register = await api.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { name: 'Ana', email: 'ana-burst@example.com', password: 'senha-segura-1' },
      remoteAddress: address,
    })
    assert.equal(register.statusCode, 429)
  })
})
