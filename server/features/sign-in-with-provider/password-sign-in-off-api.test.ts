import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { ProviderLinkList } from '../../../common/api/provider-links'
import { createPasswordReset } from '../../accounts/password-resets'
import { ADMIN, apiFixture, errorOf, PUBLIC_URL, type ApiFixture } from '../../test/api-fixture'
import {
  registeredProvider,
  startOidcTestProvider,
  type OidcTestProvider,
} from '../../test/oidc-test-provider'
import { sessionThroughProvider } from '../../test/provider-sign-in'
import { testStoreName } from '../../test/test-database'

/**
 * PASSWORD_SIGN_IN=off beyond the login form and registration (docs/single-sign-on.md, "Turning
 * passwords off"): recovery, the reset link, changing one's password and invitations are the
 * first admin's only (ADMIN_EMAIL); everyone else comes in through the provider, a real one on
 * loopback where any e-mail signs in verified.
 */

const corp = registeredProvider('corp', PUBLIC_URL)

let op: OidcTestProvider
let closed: ApiFixture
let adminToken: string

before(async () => {
  op = await startOidcTestProvider({ clients: [corp.client], anyEmail: true })
  closed = await apiFixture({
    authProviders: [corp.settings(op.issuer, { buttonText: 'Entrar com SSO da Empresa' })],
    passwordSignIn: false,
    authRateLimit: 10_000,
  })
  adminToken = await closed.signIn(ADMIN.email, ADMIN.password)
})
after(async () => {
  await closed.close()
  await op.stop()
})

/** The button, the provider as `email`, the callback, the exchange: the session's token. */
const signInAtProvider = (email: string) => sessionThroughProvider(closed, op, 'corp', email)

const sentTo = (email: string) => closed.mail.sent.filter((mail) => mail.to === email)

/** Delivers the outbox until a mail reaches `email` (the recovery composer waits a moment). */
async function mailTo(email: string) {
  for (let wait = 0; wait < 60; wait += 1) {
    await closed.deliverMail()
    const [mail] = sentTo(email)
    if (mail) return mail
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`no mail to ${email}`)
}

describe(`PASSWORD_SIGN_IN=off: recovery, passwords and invitations (${testStoreName()})`, () => {
  it('recovery mails the first admin a link, and nobody else (with the same answer)', async () => {
    const someone = await closed.account('recupera')
    const asked = await closed.post('/api/auth/password-recovery', { email: someone.email })
    const askedByAdmin = await closed.post('/api/auth/password-recovery', { email: ADMIN.email })
    assert.equal(asked.statusCode, 202)
    assert.equal(askedByAdmin.statusCode, 202)
    assert.equal(asked.body, askedByAdmin.body)
    assert.match((await mailTo(ADMIN.email)).text, /#\/recuperar-senha\?token=/)
    // The staff member's request was composed into nothing: no mail is left to send.
    const waiting = await closed.database.db
      .selectFrom('mail_outbox')
      .select('state')
      .where('recipient', '=', someone.email)
      .where('state', '!=', 'sent')
      .execute()
    await closed.deliverMail()
    assert.deepEqual(sentTo(someone.email), [], JSON.stringify(waiting))
    assert.deepEqual(await closed.events(someone.id, 'reset_requested'), [])
  })

  it('a reset link mailed before passwords were turned off sets nothing', async () => {
    const someone = await closed.account('link-antigo')
    const token = await createPasswordReset(closed.database.db, someone.id)
    const check = await closed.post('/api/auth/password-reset/check', { token })
    assert.equal(check.statusCode, 400)
    const reset = await closed.post('/api/auth/password-reset', {
      token,
      password: 'uma-senha-nova-e-boa-123',
    })
    assert.equal(reset.statusCode, 400)
    assert.equal(errorOf(reset).code, 'invalid_or_expired_token')
    const refused = await closed.post('/api/auth/login', {
      email: someone.email,
      password: 'uma-senha-nova-e-boa-123',
    })
    assert.equal(refused.statusCode, 401)
  })

  it('changing one’s password: refused to staff, allowed to the first admin', async () => {
    const someone = await closed.account('troca')
    // A session of theirs, from the provider (their password may not sign in).
    const token = await signInAtProvider(someone.email)
    const refused = await closed.call('POST', '/api/auth/password', token, {
      currentPassword: someone.password,
      newPassword: 'outra-senha-muito-boa-1',
    })
    assert.equal(refused.statusCode, 403)
    assert.equal(errorOf(refused).code, 'password_sign_in_off')
    const mine = (await closed.get('/api/me/providers', token)).json<ProviderLinkList>()
    assert.equal(mine.passwordSignIn, false, 'Minha conta hides the password card')

    const admins = (await closed.get('/api/me/providers', adminToken)).json<ProviderLinkList>()
    assert.equal(admins.passwordSignIn, true)
    const changed = await closed.call('POST', '/api/auth/password', adminToken, {
      currentPassword: ADMIN.password,
      newPassword: ADMIN.password + '-2',
    })
    assert.equal(changed.statusCode, 204, changed.body)
  })

  it('an invitation mails no password link; the first sign-in at the provider takes it up', async () => {
    const email = 'convidada@example.com'
    const invited = await closed.call('POST', '/api/staff/invitations', adminToken, {
      name: 'Convidada Sem Senha',
      email,
      role: 'staff',
    })
    assert.equal(invited.statusCode, 201, invited.body)
    const { id, status } = invited.json<{ user: { id: string; status: string } }>().user
    assert.equal(status, 'invited')
    const mail = await mailTo(email)
    assert.match(mail.text, /«Entrar com SSO da Empresa»/)
    assert.match(mail.text, new RegExp(`${PUBLIC_URL}/#/login`))
    assert.doesNotMatch(mail.text, /recuperar-senha|token=/)
    const links = await closed.database.db
      .selectFrom('password_resets')
      .select('token_hash')
      .where('account_id', '=', id)
      .execute()
    assert.deepEqual(links, [])

    const token = await signInAtProvider(email)
    const me = await closed.get('/api/auth/me', token)
    assert.equal(me.json<{ user: { id: string } }>().user.id, id)
    const item = await closed.get(`/api/staff/${id}`, adminToken)
    assert.equal(item.json<{ user: { status: string } }>().user.status, 'active')
    const account = await closed.database.db
      .selectFrom('accounts')
      .select(['password_hash', 'invitation_expires_at'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
    assert.deepEqual(account, { password_hash: '', invitation_expires_at: null })
  })
})
