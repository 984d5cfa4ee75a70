import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { totpCode } from '../../accounts/totp'
import { apiFixture, errorOf, type ApiFixture } from '../../test/api-fixture'
import { turnOnAuthenticator, wrongTotpCode } from '../../test/authenticator-app'
import { TestClock } from '../../test/test-clock'
import { testStoreName } from '../../test/test-database'

/**
 * POST /api/me/email confirmed by a second factor instead of the password (issue 30: "with the
 * current password or a second factor"): a code of the authenticator app, or a recovery code,
 * used as at sign-in and counted like a wrong password.
 */

const ASKED = 'Painel: pedido de troca do seu e-mail'
const CONFIRM = 'Painel: confirme o seu novo e-mail'
const CODE_USED = 'Painel: código de recuperação usado'

const clock = new TestClock()
let api: ApiFixture
before(async () => {
  api = await apiFixture({ authRateLimit: 1_000_000, clock: clock.now })
})
after(() => api.close())

const ask = (token: string, body: object) => api.call('POST', '/api/me/email', token, body)

async function mailsTo(email: string, subject: string) {
  await api.deliverMail()
  return api.mail.sentWith(email, subject)
}

const failedConfirmations = async (accountId: string) =>
  (await api.events(accountId, 'sign_in_failed'))
    .map((event) => JSON.parse(event.details) as { method?: string; during?: string })
    .filter((details) => details.during === 'confirmation')

describe(`changing one's e-mail with a second factor (${testStoreName()})`, () => {
  it('takes a current authenticator code, once: the same code again is refused', async () => {
    const ana = await api.person('codigo')
    const { secret } = await turnOnAuthenticator(api, ana.token, clock)
    const code = totpCode(secret, clock.now())

    const asked = await ask(ana.token, { email: 'ana.codigo@example.com', code })
    assert.equal(asked.statusCode, 202, asked.body)
    assert.equal((await mailsTo(ana.email, ASKED)).length, 1)
    assert.equal((await api.events(ana.id, 'email_change_requested')).length, 1)

    // Seen once (over a shoulder, in a proxy's log), the code opens nothing more.
    const replayed = await ask(ana.token, { email: 'ana.outra@example.com', code })
    assert.equal(replayed.statusCode, 400)
    assert.deepEqual(errorOf(replayed), {
      code: 'wrong_code',
      message:
        'O código não confere ou já foi usado. Confira o aplicativo autenticador ou use um código de recuperação.',
    })
    assert.deepEqual(await failedConfirmations(ana.id), [
      { method: 'totp', during: 'confirmation' },
    ])
    assert.equal((await api.events(ana.id, 'email_change_requested')).length, 1)
  })

  it('takes a recovery code, used up here and at sign-in, and tells the owner how many are left', async () => {
    const bia = await api.person('codigo')
    const { recoveryCodes } = await turnOnAuthenticator(api, bia.token, clock)
    const [first] = recoveryCodes
    assert.ok(first)

    // Typed back in capitals with spaces, as recovery codes may be.
    const typed = ` ${first.toUpperCase().replace(/-/g, ' ')} `
    const asked = await ask(bia.token, { email: 'bia.codigo@example.com', code: typed })
    assert.equal(asked.statusCode, 202, asked.body)
    const [notice, ...more] = await mailsTo(bia.email, CODE_USED)
    assert.equal(more.length, 0)
    assert.match(notice!.text, /usado para confirmar uma alteração na sua conta do Painel/)
    assert.match(notice!.text, /Restam 9 códigos/)
    const [used] = await api.events(bia.id, 'recovery_code_used')
    assert.deepEqual(JSON.parse(used!.details), {
      left: 9,
      during: 'confirmation',
      notice: true,
    })

    assert.equal(
      errorOf(await ask(bia.token, { email: 'bia.outra@example.com', code: first })).code,
      'wrong_code',
    )
    const step = await api.passwordStep(bia.email, bia.password)
    const signIn = await api.post('/api/auth/login/mfa', { challenge: step.challenge, code: first })
    assert.equal(errorOf(signIn).code, 'invalid_code')
    assert.deepEqual(await failedConfirmations(bia.id), [
      { method: 'recovery_code', during: 'confirmation' },
    ])
  })

  it('counts a wrong code against the same limits as a wrong password', async () => {
    const caio = await api.person('codigo')
    const { secret } = await turnOnAuthenticator(api, caio.token, clock)
    const wrong = wrongTotpCode(secret, clock)
    // Five wrong tries from one address go through (accounts/sign-in-limits.ts, account-address)…
    for (let n = 0; n < 5; n++) {
      const refused = await ask(caio.token, { email: 'caio.codigo@example.com', code: wrong })
      assert.equal(errorOf(refused).code, 'wrong_code', `try ${n + 1}`)
    }
    assert.equal((await failedConfirmations(caio.id)).length, 5)
    // …then neither a right code nor the right password is even checked until the wait is over.
    for (const body of [
      { email: 'caio.codigo@example.com', code: totpCode(secret, clock.now()) },
      { email: 'caio.codigo@example.com', password: caio.password },
    ]) {
      const waiting = await ask(caio.token, body)
      assert.equal(waiting.statusCode, 429, waiting.body)
      assert.ok(Number(waiting.headers['retry-after']) > 0)
    }
    await api.deliverMail()
    assert.deepEqual(api.mail.sentWith('caio.codigo@example.com', CONFIRM), [])
  })

  it('refuses a code from someone without the app, and a body with both or neither', async () => {
    const dora = await api.person('codigo')
    const noApp = await ask(dora.token, { email: 'dora.codigo@example.com', code: '123456' })
    assert.equal(errorOf(noApp).code, 'wrong_code')

    const { secret } = await turnOnAuthenticator(api, dora.token, clock)
    const code = totpCode(secret, clock.now())
    for (const body of [
      { email: 'dora.codigo@example.com', password: dora.password, code },
      { email: 'dora.codigo@example.com' },
      { email: 'dora.codigo@example.com', code: '' },
      { email: 'dora.codigo@example.com', code: '1'.repeat(65) },
      { email: 'dora.codigo@example.com', code: 123456 },
    ]) {
      const refused = await ask(dora.token, body)
      assert.equal(refused.statusCode, 400, JSON.stringify(body))
      assert.equal(errorOf(refused).code, 'invalid_input', JSON.stringify(body))
    }
    // None of those used the code up.
    assert.equal(
      (await ask(dora.token, { email: 'dora.codigo@example.com', code })).statusCode,
      202,
    )
  })

  it('lets someone without a password of their own confirm with the authenticator', async () => {
    const eva = await api.person('codigo')
    const { secret } = await turnOnAuthenticator(api, eva.token, clock)
    // As an account a sign-in provider made has it: no password at all.
    await api.database.db
      .updateTable('accounts')
      .set({ password_hash: '' })
      .where('id', '=', eva.id)
      .execute()
    assert.equal(
      errorOf(await ask(eva.token, { email: 'eva.codigo@example.com', password: eva.password }))
        .code,
      'wrong_password',
    )
    const asked = await ask(eva.token, {
      email: 'eva.codigo@example.com',
      code: totpCode(secret, clock.now()),
    })
    assert.equal(asked.statusCode, 202, asked.body)
    assert.equal((await mailsTo(eva.email, ASKED)).length, 1)
  })
})
