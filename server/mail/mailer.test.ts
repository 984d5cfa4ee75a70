import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { apiFixture, type ApiFixture } from '../test/api-fixture'

/** A fresh install has no SMTP_URL: a recovery mail must still reach someone (README says how). */
describe('without SMTP_URL', () => {
  let api: ApiFixture
  before(async () => {
    // No test mailer: the app makes its own from the config, which has no SMTP_URL.
    api = await apiFixture({ mailer: undefined })
  })
  after(() => api.close())

  it('writes the recovery mail, link included, to the log as a warning', async () => {
    await api.addAccount({ email: 'sem-smtp@example.com', password: 'senha-antiga-1' })
    const response = await api.post('/api/auth/password-recovery', {
      email: 'sem-smtp@example.com',
    })
    assert.equal(response.statusCode, 202)
    const line = api
      .logLines()
      .find((entry) => String(entry.msg).startsWith('mail not sent (SMTP_URL is not set)'))
    assert.ok(line, 'no "mail not sent" line in the log')
    assert.equal(line.level, 40)
    assert.match(
      String(line.msg),
      /https:\/\/painel\.example\.com\/#\/recuperar-senha\?token=[A-Za-z0-9_-]{43}/,
    )
    assert.equal(api.mail.sent.length, 0)
  })
})
