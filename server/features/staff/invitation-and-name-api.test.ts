import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { UserAnswer } from '../../../common/api/account'
import type { Dashboard } from '../../../common/api/dashboard'
import type { StaffItem, StaffList } from '../../../common/api/staff'
import { pruneAudit } from '../../audit-log/audit-query'
import { ADMIN, apiFixture, errorOf, type ApiFixture } from '../../test/api-fixture'
import { testStoreName } from '../../test/test-database'

const INVITATION = 'Painel: você recebeu um convite'
const PASSWORD_CHANGED = 'Painel: sua senha foi alterada'

let api: ApiFixture
let adminToken: string
before(async () => {
  api = await apiFixture()
  adminToken = await api.signIn(ADMIN.email, ADMIN.password)
})
after(() => api.close())

let invitations = 0
/** Invites someone new through the API: their account and the token of the mailed link. */
async function invite(name = 'Convidado') {
  invitations += 1
  const email = `convite${invitations}@example.com`
  const response = await api.call('POST', '/api/staff/invitations', adminToken, {
    name,
    email,
    role: 'staff',
  })
  assert.equal(response.statusCode, 201, response.body)
  const { user } = response.json<{ user: StaffItem }>()
  return { user, token: await linkToken(email, 1) }
}

/** The token of the n-th invitation mail to this address. */
async function linkToken(email: string, nth: number): Promise<string> {
  await api.mail.withSubject(email, INVITATION)
  await api.deliverMail()
  const mails = api.mail.sentWith(email, INVITATION)
  const mail = mails[nth - 1]
  assert.ok(mail, `no invitation mail ${nth} to ${email}`)
  const token = /recuperar-senha\?token=([A-Za-z0-9_-]{43})&convite=1/.exec(mail.text)?.[1]
  assert.ok(token, mail.text)
  return token
}

const staffItem = async (id: string) =>
  (await api.get(`/api/staff/${id}`, adminToken)).json<{ user: StaffItem }>().user
const resend = (id: string, token = adminToken) =>
  api.call('POST', `/api/staff/${id}/invitation`, token)
const setPassword = (token: string, password: string) =>
  api.post('/api/auth/password-reset', { token, password })

describe(`invitations are not active accounts (${testStoreName()})`, () => {
  it('shows an invited person as invited, with the expiry, until they set a password', async () => {
    const { user, token } = await invite()
    assert.equal(user.status, 'invited')
    const days = (new Date(user.invitationExpiresAt!).getTime() - Date.now()) / 86_400_000
    assert.ok(days > 6.9 && days <= 7, String(days))

    const invited = await api.get('/api/staff?status=invited&pageSize=100', adminToken)
    assert.ok(invited.json<StaffList>().items.some((item) => item.id === user.id))
    const active = await api.get('/api/staff?status=active&pageSize=100', adminToken)
    assert.ok(!active.json<StaffList>().items.some((item) => item.id === user.id))
    assert.ok(
      active.json<StaffList>().items.every((item) => item.status === 'active'),
      'the active filter shows active accounts only',
    )
    const dashboard = (await api.get('/api/dashboard', adminToken)).json<Dashboard>()
    assert.ok(dashboard.accounts.invited >= 1)

    // An invited person has no password: signing in is refused as it always was.
    assert.equal((await setPassword(token, 'senha-do-convidado-1')).statusCode, 204)
    const now = await staffItem(user.id)
    assert.deepEqual([now.status, now.invitationExpiresAt], ['active', null])
    const afterwards = (await api.get('/api/dashboard', adminToken)).json<Dashboard>()
    assert.equal(afterwards.accounts.invited, dashboard.accounts.invited - 1)
    assert.equal(afterwards.accounts.active, dashboard.accounts.active + 1)
  })

  it('is taken up by its account, not its event: accepted after the log was pruned', async () => {
    const { user, token } = await invite('Convidada Antiga')
    // AUDIT_RETENTION_DAYS removed the "invited" event (and any other) of this account.
    const longAgo = new Date(Date.now() - 400 * 86_400_000)
    await api.database.db
      .updateTable('audit_events')
      .set({ at: longAgo })
      .where('account_id', '=', user.id)
      .execute()
    await pruneAudit(api.database.db, 365)
    assert.equal((await api.events(user.id, 'invited')).length, 0)

    assert.equal((await setPassword(token, 'senha-da-convidada-1')).statusCode, 204)
    const now = await staffItem(user.id)
    assert.deepEqual([now.status, now.invitationExpiresAt], ['active', null])
    await api.signIn(user.email, 'senha-da-convidada-1')
    // Their first password: no "your password was changed" mail, as for any invitation.
    await api.deliverMail()
    assert.deepEqual(api.mail.sentWith(user.email, PASSWORD_CHANGED), [])
    assert.equal((await api.events(user.id, 'password_reset')).length, 1)
  })

  it('sends a new invitation (202): the new link works, the old one no longer does', async () => {
    const { user, token: first } = await invite('Reenviada')
    const before = await staffItem(user.id)
    await new Promise((resolve) => setTimeout(resolve, 5))
    const response = await resend(user.id)
    assert.equal(response.statusCode, 202, response.body)
    assert.equal(response.body, '')
    const second = await linkToken(user.email, 2)
    assert.notEqual(second, first)
    const moved = await staffItem(user.id)
    assert.equal(moved.status, 'invited')
    assert.ok(moved.invitationExpiresAt! > before.invitationExpiresAt!)

    assert.equal((await setPassword(first, 'senha-da-reenviada-1')).statusCode, 400)
    assert.equal((await setPassword(second, 'senha-da-reenviada-1')).statusCode, 204)
    assert.equal((await staffItem(user.id)).status, 'active')
    await api.signIn(user.email, 'senha-da-reenviada-1')

    const [event] = await api.events(user.id, 'invitation_resent')
    assert.ok(event, 'audited')
    const audit = await api.get(`/api/audit?account=${user.id}`, adminToken)
    assert.ok(audit.body.includes('invitation_resent'))
  })

  it('answers 404 for an unknown id and 409 not_invited for anyone not invited', async () => {
    assert.equal(errorOf(await resend(crypto.randomUUID())).code, 'not_found')
    assert.equal((await resend(crypto.randomUUID())).statusCode, 404)
    const active = await api.account('ativo')
    const pending = await api.account('pendente', { status: 'pending' })
    const { user: disabledInvitee } = await invite('Desativada')
    const disabled = await api.call('PATCH', `/api/staff/${disabledInvitee.id}`, adminToken, {
      status: 'disabled',
    })
    assert.equal(disabled.json<{ user: StaffItem }>().user.status, 'disabled')
    // Disabled, the invitation is still there: re-enabled, the person is invited again.
    assert.ok(disabled.json<{ user: StaffItem }>().user.invitationExpiresAt)
    for (const id of [active.id, pending.id, disabledInvitee.id]) {
      const response = await resend(id)
      assert.equal(response.statusCode, 409, id)
      assert.equal(errorOf(response).code, 'not_invited')
      assert.match(errorOf(response).message, /convite/)
    }
    const reenabled = await api.call('PATCH', `/api/staff/${disabledInvitee.id}`, adminToken, {
      status: 'active',
    })
    assert.equal(reenabled.json<{ user: StaffItem }>().user.status, 'invited')
  })

  it('is admin-only', async () => {
    const { user } = await invite()
    const staff = await api.person('equipe')
    assert.equal((await resend(user.id, staff.token)).statusCode, 403)
    assert.equal((await api.call('POST', `/api/staff/${user.id}/invitation`)).statusCode, 401)
  })
})

describe(`names can be corrected (${testStoreName()})`, () => {
  it('PATCH /api/me {name}: the person corrects their own name, audited before and after', async () => {
    const me = await api.person('nome', { name: 'Jose Silva' })
    const response = await api.call('PATCH', '/api/me', me.token, { name: '  José Silva ' })
    assert.equal(response.statusCode, 200, response.body)
    assert.equal(response.json<UserAnswer>().user.name, 'José Silva')
    const signedIn = await api.get('/api/auth/me', me.token)
    assert.equal(signedIn.json<UserAnswer>().user.name, 'José Silva')
    const [event] = await api.events(me.id, 'name_changed')
    assert.ok(event)
    assert.equal(event.actor_id, me.id)
    assert.deepEqual(JSON.parse(event.details), { from: 'Jose Silva', to: 'José Silva' })
  })

  it('PATCH /api/me refuses what registration refuses, 400 in the standard shape', async () => {
    const me = await api.person('regra', { name: 'Regra' })
    for (const name of ['   ', 'a'.repeat(101), 'Ana \u202eavA']) {
      const response = await api.call('PATCH', '/api/me', me.token, { name })
      assert.equal(response.statusCode, 400, name)
      assert.equal(errorOf(response).code, 'invalid_input')
      assert.ok(errorOf(response).message.length > 0)
    }
    for (const body of [{}, { name: 'A', role: 'admin' }, { name: 1 }]) {
      assert.equal((await api.call('PATCH', '/api/me', me.token, body)).statusCode, 400)
    }
    assert.equal((await api.call('PATCH', '/api/me', undefined, { name: 'X' })).statusCode, 401)
    assert.equal((await api.events(me.id, 'name_changed')).length, 0)
    assert.equal((await api.get('/api/auth/me', me.token)).json<UserAnswer>().user.name, 'Regra')
  })

  it('PATCH /api/staff/:id {name}: an admin corrects a name, audited before and after', async () => {
    const person = await api.account('corrigir', { name: 'Mria' })
    const response = await api.call('PATCH', `/api/staff/${person.id}`, adminToken, {
      name: 'Maria',
    })
    assert.equal(response.statusCode, 200, response.body)
    assert.equal(response.json<{ user: StaffItem }>().user.name, 'Maria')
    const [event] = await api.events(person.id, 'name_changed')
    assert.deepEqual(JSON.parse(event!.details), { from: 'Mria', to: 'Maria' })
    assert.equal(event!.actor_email, ADMIN.email)

    const refused = await api.call('PATCH', `/api/staff/${person.id}`, adminToken, { name: ' ' })
    assert.equal(refused.statusCode, 400)
    assert.equal(errorOf(refused).code, 'invalid_input')
    assert.equal((await staffItem(person.id)).name, 'Maria')

    const unknown = await api.call('PATCH', `/api/staff/${crypto.randomUUID()}`, adminToken, {
      name: 'Ninguém',
    })
    assert.equal(unknown.statusCode, 404)
    const staff = await api.person('comum')
    const forbidden = await api.call('PATCH', `/api/staff/${person.id}`, staff.token, {
      name: 'Outra',
    })
    assert.equal(forbidden.statusCode, 403)
    // One's own name is corrected in Minha conta, as one's own status and role are.
    const adminId = (await api.get('/api/auth/me', adminToken)).json<UserAnswer>().user.id
    const own = await api.call('PATCH', `/api/staff/${adminId}`, adminToken, { name: 'Chefe' })
    assert.equal(own.statusCode, 400)
    assert.equal(errorOf(own).code, 'own_account')
  })
})
