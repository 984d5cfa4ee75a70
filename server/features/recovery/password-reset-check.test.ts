import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { apiFixture, type ApiFixture } from '../../test/api-fixture'

let api: ApiFixture
before(async () => {
  api = await apiFixture()
})
after(() => api.close())

const linkIn = (text: string) => /\/#\/recuperar-senha\?token=([A-Za-z0-9_-]{43})/.exec(text)?.[1]
const check = (body: unknown) => api.post('/api/auth/password-reset/check', body)
const INVALID = {
  code: 'invalid_or_expired_token',
  message: 'Este link de redefinição é inválido, já foi usado ou expirou. Peça um novo.',
}

describe('POST /api/auth/password-reset/check', () => {
  it('says a fresh link is usable, as often as asked, without using it', async () => {
    await api.addAccount({ email: 'check@example.com', password: 'senha-antiga-1' })
    await api.post('/api/auth/password-recovery', { email: 'check@example.com' })
    const token = linkIn((await api.mail.next('check@example.com')).text)
    assert.ok(token)

    for (let time = 0; time < 2; time += 1) {
      const answer = await check({ token })
      assert.equal(answer.statusCode, 204)
      assert.equal(answer.body, '')
    }
    const reset = await api.post('/api/auth/password-reset', { token, password: 'senha-nova-123' })
    assert.equal(reset.statusCode, 204, 'checking did not use the link up')

    const used = await check({ token })
    assert.equal(used.statusCode, 400)
    assert.deepEqual(used.json<{ error: unknown }>().error, INVALID)
  })

  it('refuses a well-formed token nobody was sent, and a malformed one', async () => {
    for (const token of ['A'.repeat(43), 'abc', '']) {
      const answer = await check({ token })
      assert.equal(answer.statusCode, 400, token)
      assert.deepEqual(answer.json<{ error: unknown }>().error, INVALID, token)
    }
  })

  it('refuses a body that is not {token}', async () => {
    for (const body of [{}, { token: 1 }, { token: 'A'.repeat(43), extra: true }]) {
      const answer = await check(body)
      assert.equal(answer.statusCode, 400, JSON.stringify(body))
      assert.equal(answer.json<{ error: { code: string } }>().error.code, 'invalid_input')
    }
  })
})
