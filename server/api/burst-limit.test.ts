import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { apiFixture, type ApiFixture } from '../test/api-fixture'
import { testStoreName } from '../test/test-database'

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

describe(`the burst limit of /api/auth per address (AUTH_RATE_LIMIT, ${testStoreName()})`, () => {
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
