import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { freePortSync } from '../../scripts/free-port'
import { ADMIN, apiFixture, type ApiFixture } from '../test/api-fixture'

/** A fresh install has no SMTP_URL: a recovery mail must still reach someone (docs/security.md says how). */
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
    // The mail goes out after the answer, from the outbox: sent now rather than waited for (a
    // bounded wait for the app's own sender ran out on a busy machine).
    await api.deliverMail()
    const isMailLine = (entry: Record<string, unknown>) =>
      String(entry.msg).startsWith('mail not sent (SMTP_URL is not set)')
    const line = api.logLines().find(isMailLine)
    assert.ok(line, 'no "mail not sent" line in the log')
    assert.equal(line.level, 40)
    assert.match(
      String(line.msg),
      /https:\/\/painel\.example\.com\/#\/recuperar-senha\?token=[A-Za-z0-9_-]{43}/,
    )
    assert.equal(api.mail.sent.length, 0)
  })

  it('writes the mail once, and no line says it was sent', async () => {
    await api.addAccount({ email: 'uma-vez@example.com', password: 'senha-antiga-1' })
    const response = await api.post('/api/auth/password-recovery', {
      email: 'uma-vez@example.com',
    })
    assert.equal(response.statusCode, 202)
    // The mail goes out after the answer, from the outbox: sent now, and the outbox then empty.
    await api.deliverMail()
    const lines = api.logLines()
    const mentions = lines
      .map((entry) => JSON.stringify(entry))
      .filter((line) => line.includes('/#/recuperar-senha?token='))
      .filter((line) => line.includes('uma-vez@example.com'))
    assert.equal(mentions.length, 1, 'the link is written exactly once')
    assert.equal(
      mentions[0]!.split('/#/recuperar-senha?token=').length - 1,
      1,
      'and once within its line',
    )
    assert.equal(
      lines.some((entry) => /mail sent/.test(String(entry.msg))),
      false,
      'no line says the mail was sent',
    )
  })
})

/** With metrics on, the mailer is counted, and still only logs: one line says what happened. */
describe('without SMTP_URL, with metrics', () => {
  let api: ApiFixture
  before(async () => {
    api = await apiFixture({ mailer: undefined, metricsPort: freePortSync(), host: '127.0.0.1' })
  })
  after(() => api.close())

  it('an invitation is one log line, and none says it was sent', async () => {
    const token = await api.signIn(ADMIN.email, ADMIN.password)
    const invited = await api.call('POST', '/api/staff/invitations', token, {
      name: 'Convidado Sem Smtp',
      email: 'convite-sem-smtp@example.com',
      role: 'staff',
    })
    assert.equal(invited.statusCode, 201)
    const mentions = () =>
      api.logLines().filter((entry) => JSON.stringify(entry).includes('convite-sem-smtp'))
    // Everything due is sent: a second line would be written by now.
    await api.deliverMail()
    assert.equal(mentions().length, 1, 'one line about the mail')
    assert.match(String(mentions()[0]!.msg), /^mail not sent \(SMTP_URL is not set\)/)
    assert.equal(
      api.logLines().some((entry) => /mail sent/.test(String(entry.msg))),
      false,
      'no line says the mail was sent',
    )
  })
})
