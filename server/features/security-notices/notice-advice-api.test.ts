import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { TotpSetup } from '../../../common/api/me'
import { totpCode } from '../../accounts/totp'
import { ADMIN, apiFixture, PUBLIC_URL, type ApiFixture } from '../../test/api-fixture'
import { namedOnlyProvider } from '../../test/oidc-test-provider'
import { testStoreName } from '../../test/test-database'
import { party, recordAudit } from '../../audit-log/record-audit'
import { FIREFOX_LINUX } from '../../test/user-agents'

/**
 * A security notice's advice fits the person and who made the change
 * (security-notice-mail.ts): a pending registration is not told to sign in or to make a new
 * password, someone without a password is told to change the provider's, a change an admin made
 * is answered by the admins; and a provider is named by its label, never by AUTH_PROVIDERS'
 * name. The events are written as the paths that make them write them (recordAudit, whose
 * transaction queues the notice), so what is tested is the mail the person gets.
 */

let api: ApiFixture
let adminToken: string
before(async () => {
  api = await apiFixture({
    authProviders: [namedOnlyProvider('idt', PUBLIC_URL)],
  })
  adminToken = await api.signIn(ADMIN.email, ADMIN.password)
})
after(() => api.close())

async function mailTo(email: string, subject: string) {
  await api.deliverMail()
  const [mail, ...more] = api.mail.sentWith(email, subject)
  assert.ok(mail, `a mail "${subject}" to ${email}`)
  assert.equal(more.length, 0)
  return mail.text
}

/** An account that came in through the provider: no password of its own, linked to `idt`. */
async function providerAccount(label: string, status: 'active' | 'pending') {
  const person = await api.account(label, { status })
  await api.database.db
    .updateTable('accounts')
    .set({ password_hash: '' })
    .where('id', '=', person.id)
    .execute()
  await api.database.db
    .insertInto('provider_links')
    .values({
      id: crypto.randomUUID(),
      provider: 'idt',
      issuer: 'http://127.0.0.1:9',
      subject: `sub-${person.id}`,
      account_id: person.id,
    })
    .execute()
  return person
}

const NEW_PASSWORD = /crie uma nova senha|recuperar-senha/

describe(`security notices' advice (${testStoreName()})`, () => {
  it('a pending registration is not told to sign in nor to make a new password', async () => {
    const person = await providerAccount('aviso-pendente', 'pending')
    // As account-for-identity.ts writes it when the provider makes the account.
    await recordAudit(api.database.db, {
      type: 'provider_linked',
      actor: party(person),
      account: party(person),
      origin: { ip: '203.0.113.20', userAgent: FIREFOX_LINUX },
      details: { provider: 'idt', by: 'new_account' },
    })
    const text = await mailTo(person.email, 'Painel: provedor de identidade vinculado')
    assert.match(text, /O provedor de identidade «Conta Corporativa» foi vinculado/)
    assert.match(text, /aguarda a aprovação de um administrador/)
    assert.match(text, /Se não foi você que pediu este cadastro, avise quem administra o Painel/)
    assert.doesNotMatch(text, NEW_PASSWORD)
    assert.doesNotMatch(text, /encerre as outras sessões/)
    assert.doesNotMatch(text, /«idt»/)
  })

  it('someone without a password is told to change the provider’s, by its label', async () => {
    const person = await providerAccount('aviso-sem-senha', 'active')
    // As complete-sign-in.ts writes a sign-in through the provider from a new browser.
    await recordAudit(api.database.db, {
      type: 'sign_in',
      actor: party(person),
      account: party(person),
      origin: { ip: '203.0.113.21', userAgent: FIREFOX_LINUX },
      details: { method: 'provider', provider: 'idt', new_browser: true },
    })
    const text = await mailTo(person.email, 'Painel: entrada de um navegador novo')
    assert.match(
      text,
      /Não foi você\? Entre no Painel e, em Minha conta, encerre as outras sessões/,
    )
    assert.match(
      text,
      /Depois troque a senha da sua conta no provedor de identidade «Conta Corporativa» e avise quem administra o Painel/,
    )
    assert.doesNotMatch(text, NEW_PASSWORD)
  })

  it('a role an admin changed is answered by the admins: no "Não foi você?", no new password', async () => {
    const person = await api.account('aviso-papel')
    const changed = await api.call('PATCH', `/api/staff/${person.id}`, adminToken, {
      role: 'admin',
    })
    assert.equal(changed.statusCode, 200, changed.body)
    const text = await mailTo(person.email, 'Painel: seu papel foi alterado')
    assert.match(text, /da administração do Painel/)
    assert.match(text, /Se não esperava por isso, fale com quem administra o Painel/)
    assert.doesNotMatch(text, /Não foi você/)
    assert.doesNotMatch(text, NEW_PASSWORD)
  })

  it('a role the provider’s claims changed names the provider by its label', async () => {
    const person = await providerAccount('aviso-claims', 'active')
    // As account-for-identity.ts writes it at a sign-in whose claims moved the person.
    await recordAudit(api.database.db, {
      type: 'role_changed',
      actor: party(person),
      account: party(person),
      details: {
        from: 'staff',
        to: 'staff',
        from_role: 'Equipe',
        to_role: 'Auditoria',
        provider: 'idt',
      },
    })
    const text = await mailTo(person.email, 'Painel: seu papel foi alterado')
    assert.match(text, /A alteração veio do provedor de identidade «Conta Corporativa», ao entrar/)
    assert.match(text, /Se não esperava por isso, fale com quem administra o Painel/)
    assert.doesNotMatch(text, NEW_PASSWORD)
  })

  it('second factors an admin removed from someone without a password: no password advice', async () => {
    const person = await api.person('aviso-2fa-sem-senha')
    const setup = (await api.call('POST', '/api/me/totp', person.token)).json<TotpSetup>()
    const confirmed = await api.call('POST', '/api/me/totp/confirm', person.token, {
      code: totpCode(setup.secret, new Date()),
    })
    assert.equal(confirmed.statusCode, 200, confirmed.body)
    // Then the account came to sign in at the provider only (PASSWORD_SIGN_IN=off, say).
    await api.database.db
      .updateTable('accounts')
      .set({ password_hash: '' })
      .where('id', '=', person.id)
      .execute()
    const removed = await api.call('DELETE', `/api/staff/${person.id}/mfa`, adminToken)
    assert.equal(removed.statusCode, 204, removed.body)
    const told = await mailTo(person.email, 'Painel: sua verificação em duas etapas foi desativada')
    assert.match(told, /Agora basta entrar pelo provedor de identidade\./)
    assert.match(told, /Se você não pediu isso, avise quem administra o Painel/)
    assert.doesNotMatch(told, /sua senha basta|crie uma nova senha|recuperar-senha/)
    const notice = await mailTo(person.email, 'Painel: segundo fator desativado')
    assert.match(notice, /agora basta o provedor de identidade para entrar/)
    assert.doesNotMatch(notice, NEW_PASSWORD)
    assert.doesNotMatch(notice, /basta a senha/)
  })

  it('someone with a password who did not do it is still told to make a new one', async () => {
    const person = await api.person('aviso-com-senha')
    const setup = await api.call('POST', '/api/me/totp', person.token)
    assert.equal(setup.statusCode, 200, setup.body)
    await recordAudit(api.database.db, {
      type: 'recovery_codes_regenerated',
      actor: party(person),
      account: party(person),
    })
    const text = await mailTo(person.email, 'Painel: novos códigos de recuperação')
    assert.match(text, /Se foi você, não precisa fazer nada\./)
    assert.match(text, /Depois crie uma nova senha por este link/)
    assert.match(text, /#\/recuperar-senha/)
  })
})
