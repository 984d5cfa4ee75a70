import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { EmailChangeAnswer } from '../../../common/api/email-change'
import { ADMIN, apiFixture, errorOf, type ApiFixture } from '../../test/api-fixture'
import { TestClock } from '../../test/test-clock'
import { testStoreName } from '../../test/test-database'

const CONFIRM = 'Painel: confirme o seu novo e-mail'
const ASKED = 'Painel: pedido de troca do seu e-mail'

const clock = new TestClock()
let api: ApiFixture
before(async () => {
  api = await apiFixture({ authRateLimit: 1_000_000, clock: clock.now })
})
after(() => api.close())

const tokenIn = (text: string, key: 'token' | 'cancelar') =>
  new RegExp(`confirmar-email\\?${key}=([A-Za-z0-9_-]{43})`).exec(text)?.[1]

async function mailTo(email: string, subject: string) {
  await api.deliverMail()
  return api.mail.withSubject(email, subject)
}

const ask = (token: string, email: string, password: string) =>
  api.call('POST', '/api/me/email', token, { email, password })

describe(`changing one's e-mail (${testStoreName()})`, () => {
  it('mails the new address a link and the old one a cancel link; the old e-mail signs in until confirmed', async () => {
    const ana = await api.person('troca', { name: 'Ana Troca' })
    const asked = await ask(ana.token, '  Ana.Nova@Example.COM ', ana.password)
    assert.equal(asked.statusCode, 202, asked.body)

    const old = await mailTo(ana.email, ASKED)
    assert.match(old.text, /passe a ser ana\.nova@example\.com/)
    assert.match(old.text, /na sua própria sessão, em Minha conta/)
    const cancel = tokenIn(old.text, 'cancelar')
    assert.ok(cancel, 'a cancel link')
    const confirmMail = await mailTo('ana.nova@example.com', CONFIRM)
    const token = tokenIn(confirmMail.text, 'token')
    assert.ok(token, 'a confirm link')
    assert.match(confirmMail.text, /vale por 24 horas/)

    // Until it is confirmed, the old e-mail stays and signs in; the new one does not.
    await api.signIn(ana.email, ana.password)
    assert.equal(
      (await api.post('/api/auth/login', { email: 'ana.nova@example.com', password: ana.password }))
        .statusCode,
      401,
    )

    const confirmed = await api.post('/api/auth/email/confirm', { token })
    assert.equal(confirmed.statusCode, 200, confirmed.body)
    assert.deepEqual(confirmed.json<EmailChangeAnswer>(), { email: 'ana.nova@example.com' })
    await api.signIn('ana.nova@example.com', ana.password)
    assert.equal(
      (await api.post('/api/auth/login', { email: ana.email, password: ana.password })).statusCode,
      401,
    )
    // Single use; and the cancel link died with the change.
    const again = await api.post('/api/auth/email/confirm', { token })
    assert.equal(errorOf(again).code, 'invalid_or_expired_email_link')
    assert.equal(
      errorOf(await api.post('/api/auth/email/cancel', { token: cancel })).code,
      'invalid_or_expired_email_link',
    )
    const [changed] = await api.events(ana.id, 'email_changed')
    assert.deepEqual(JSON.parse(changed!.details), {
      from: ana.email,
      to: 'ana.nova@example.com',
    })
    const requested = await api.events(ana.id, 'email_change_requested')
    assert.equal(requested.length, 1)
    // The old address's mail is a security notice, said by the event itself.
    assert.equal((JSON.parse(requested[0]!.details) as { notice?: unknown }).notice, true)
    assert.deepEqual(await api.events(ana.id, 'notice_sent'), [])
  })

  it('is cancelled from the old address: the new link stops working, nothing changes', async () => {
    const bia = await api.person('troca')
    assert.equal((await ask(bia.token, 'bia.outra@example.com', bia.password)).statusCode, 202)
    const cancel = tokenIn((await mailTo(bia.email, ASKED)).text, 'cancelar')
    const token = tokenIn((await mailTo('bia.outra@example.com', CONFIRM)).text, 'token')
    const cancelled = await api.post('/api/auth/email/cancel', { token: cancel })
    assert.equal(cancelled.statusCode, 204, cancelled.body)
    assert.equal(
      errorOf(await api.post('/api/auth/email/confirm', { token })).code,
      'invalid_or_expired_email_link',
    )
    await api.signIn(bia.email, bia.password)
    assert.equal((await api.events(bia.id, 'email_change_cancelled')).length, 1)
  })

  it('never reveals an address that has an account: same answer, and that mailbox is told instead', async () => {
    const caio = await api.person('troca')
    const dora = await api.account('troca')
    const taken = await ask(caio.token, dora.email.toUpperCase(), caio.password)
    const told = await mailTo(dora.email, CONFIRM)
    assert.match(told.text, /já é o e-mail de outra conta/)
    assert.equal(tokenIn(told.text, 'token'), undefined)
    // Delivered before the second ask: a mail whose request was replaced before it left is not
    // sent at all (its cancel link would be dead), so the comparison needs both out first.
    const first = await mailTo(caio.email, ASKED)
    const free = await ask(caio.token, 'ninguem.ainda@example.com', caio.password)
    assert.equal(taken.statusCode, 202)
    assert.equal(free.statusCode, 202)
    assert.equal(taken.body, free.body)
    await api.deliverMail()
    const [, second] = api.mail.sentWith(caio.email, ASKED)
    assert.ok(second, 'the old address told of the second ask too')
    // Both asks told the old address in the same words, but for the address and the link.
    const words = (text: string, asked: string) =>
      text.replace(asked, '<novo>').replace(/cancelar=[A-Za-z0-9_-]{43}/, 'cancelar=<token>')
    assert.equal(words(first.text, dora.email), words(second.text, 'ninguem.ainda@example.com'))
  })

  it('a newer request replaces the older; a link expires after 24 hours', async () => {
    const eva = await api.person('troca')
    await ask(eva.token, 'eva.um@example.com', eva.password)
    const first = tokenIn((await mailTo('eva.um@example.com', CONFIRM)).text, 'token')
    await ask(eva.token, 'eva.dois@example.com', eva.password)
    const second = tokenIn((await mailTo('eva.dois@example.com', CONFIRM)).text, 'token')
    assert.equal(
      errorOf(await api.post('/api/auth/email/confirm', { token: first })).code,
      'invalid_or_expired_email_link',
    )
    clock.advance(24 * 3_600_000 + 1000)
    assert.equal(
      errorOf(await api.post('/api/auth/email/confirm', { token: second })).code,
      'invalid_or_expired_email_link',
    )
    await api.signIn(eva.email, eva.password)
  })

  it('refuses a wrong password (counted), a bad or same address, and a caller without a session', async () => {
    const gil = await api.person('troca')
    const wrong = await ask(gil.token, 'gil.novo@example.com', 'nao-e-a-senha')
    assert.equal(errorOf(wrong).code, 'wrong_password')
    const failed = await api.events(gil.id, 'sign_in_failed')
    assert.equal((JSON.parse(failed.at(-1)!.details) as { during?: string }).during, 'confirmation')
    assert.equal(errorOf(await ask(gil.token, 'sem-arroba', gil.password)).code, 'invalid_input')
    assert.equal(
      errorOf(await ask(gil.token, gil.email.toUpperCase(), gil.password)).code,
      'same_email',
    )
    assert.equal(
      (await api.call('POST', '/api/me/email', undefined, { email: 'a@b.co', password: 'x' }))
        .statusCode,
      401,
    )
    for (const body of [{}, { token: '' }, { token: 'x'.repeat(65) }]) {
      assert.equal((await api.post('/api/auth/email/confirm', body)).statusCode, 400)
    }
    await api.deliverMail()
    assert.equal(api.mail.sentWith('gil.novo@example.com', CONFIRM).length, 0)
  })

  it('two confirmations of one link at once: one changes the e-mail, the other is refused', async () => {
    const hugo = await api.person('troca')
    await ask(hugo.token, 'hugo.novo@example.com', hugo.password)
    const token = tokenIn((await mailTo('hugo.novo@example.com', CONFIRM)).text, 'token')
    const answers = await Promise.all([
      api.post('/api/auth/email/confirm', { token }),
      api.post('/api/auth/email/confirm', { token }),
    ])
    assert.deepEqual(answers.map((a) => a.statusCode).sort(), [200, 400])
    assert.equal((await api.events(hugo.id, 'email_changed')).length, 1)
  })

  it('an address taken after the request is not given to a second account', async () => {
    const ines = await api.person('troca')
    await ask(ines.token, 'disputado@example.com', ines.password)
    const token = tokenIn((await mailTo('disputado@example.com', CONFIRM)).text, 'token')
    await api.addAccount({ email: 'disputado@example.com', password: 'senha-disputa-1' })
    assert.equal(
      errorOf(await api.post('/api/auth/email/confirm', { token })).code,
      'invalid_or_expired_email_link',
    )
    await api.signIn(ines.email, ines.password)
  })

  it("an admin's change goes through the same confirmation, and the old address is told who", async () => {
    const jo = await api.account('troca')
    // A fresh session: an earlier test moved the clock a day on.
    const adminToken = await api.signIn(ADMIN.email, ADMIN.password)
    const staffToken = (await api.person('troca')).token
    assert.equal(
      (await api.call('POST', `/api/staff/${jo.id}/email`, staffToken, { email: 'jo@x.com' }))
        .statusCode,
      403,
    )
    const asked = await api.call('POST', `/api/staff/${jo.id.toUpperCase()}/email`, adminToken, {
      email: 'jo.novo@example.com',
    })
    assert.equal(asked.statusCode, 202, asked.body)
    const old = await mailTo(jo.email, ASKED)
    assert.match(old.text, new RegExp(`\\(${ADMIN.email}\\), da administração do Painel`))
    const token = tokenIn((await mailTo('jo.novo@example.com', CONFIRM)).text, 'token')
    await api.signIn(jo.email, jo.password)
    assert.equal((await api.post('/api/auth/email/confirm', { token })).statusCode, 200)
    await api.signIn('jo.novo@example.com', jo.password)
    const [event] = await api.events(jo.id, 'email_change_requested')
    assert.equal((JSON.parse(event!.details) as { by?: string }).by, 'admin')
    assert.notEqual(event!.actor_id, jo.id)
  })
})
