import { BUILT_IN_ROLE_IDS, PERMISSIONS } from '../../../common/permissions'
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { StaffItem, StaffList } from '../../../common/api/staff'
import type { ApiContext } from '../../api/api-context'
import { ADMIN, apiFixture, type ApiFixture, type Method } from '../../test/api-fixture'
import { testStoreName } from '../../test/test-database'
import { limitKeys, RULES, SignInLimits } from '../../accounts/sign-in-limits'
import { changeStaffAccount } from './change-staff-account'

/** The role an actor's call began with: Administrador (demoted since, in one test). */
const adminAccess = {
  roleId: BUILT_IN_ROLE_IDS.admin,
  roleName: 'Administrador',
  scope: 'all' as const,
  permissions: [...PERMISSIONS],
  teamId: null,
  teamName: null,
}

const PASSWORD_CHANGED = 'Painel: sua senha foi alterada'

let api: ApiFixture
let adminToken: string
let adminId: string
let staffToken: string
before(async () => {
  api = await apiFixture()
  adminToken = await api.signIn(ADMIN.email, ADMIN.password)
  adminId = (await api.get('/api/auth/me', adminToken)).json<{ user: { id: string } }>().user.id
  await api.addAccount({ email: 'comum@example.com', password: 'senha-comum-1', name: 'Comum' })
  staffToken = await api.signIn('comum@example.com', 'senha-comum-1')
})
after(() => api.close())

const code = (response: { json: <T>() => T }) =>
  response.json<{ error: { code: string } }>().error.code
const list = async (query = '') => {
  const response = await api.call('GET', `/api/staff${query}`, adminToken)
  assert.equal(response.statusCode, 200, response.body)
  return response.json<StaffList>()
}
const auditTypes = async (account: string) =>
  (await api.call('GET', `/api/audit?account=${account}`, adminToken)).json<{
    events: { type: string; actor: { id: string } | null }[]
  }>().events

/** An admin's status change through PATCH /api/staff/:id. */
const setStatus = (id: string, status: string, token = adminToken) =>
  api.call('PATCH', `/api/staff/${id}`, token, { status })

describe(`/api/staff (${testStoreName()})`, () => {
  it('answers every call 401 without a session and 403 for staff', async () => {
    const someone = crypto.randomUUID()
    const calls: [Method, string, object?][] = [
      ['GET', '/api/staff'],
      ['GET', `/api/staff/${someone}`],
      ['PATCH', `/api/staff/${someone}`, { status: 'active' }],
      ['DELETE', `/api/staff/${someone}`],
      ['POST', `/api/staff/${someone}/unlock`],
      ['POST', `/api/staff/${someone}/sign-out`],
      ['POST', `/api/staff/${someone}/password-reset`],
      ['POST', `/api/staff/${someone}/invitation`],
      ['PATCH', `/api/staff/${someone}`, { name: 'Outro Nome' }],
      ['DELETE', `/api/staff/${someone}/mfa`],
      ['POST', '/api/staff/invitations', { name: 'A', email: 'a@example.com', role: 'staff' }],
      ['GET', '/api/audit'],
      ['GET', '/api/audit.csv'],
      ['GET', '/api/dashboard'],
    ]
    for (const [method, url, body] of calls) {
      const anonymous = await api.call(method, url, undefined, body)
      assert.equal(anonymous.statusCode, 401, `${method} ${url}`)
      const staff = await api.call(method, url, staffToken, body)
      assert.equal(staff.statusCode, 403, `${method} ${url}`)
      assert.equal(code(staff), 'forbidden')
    }
  })

  it('lists with search, filters, sort and pages, pending first by default', async () => {
    await api.addAccount({
      email: 'zeca@lista.test',
      password: 'senha-zeca-1',
      name: 'Zeca Lista',
      status: 'pending',
    })
    await api.addAccount({ email: 'ana@lista.test', password: 'senha-ana-12', name: 'Ana Lista' })
    await api.addAccount({
      email: 'bia@lista.test',
      password: 'senha-bia-12',
      name: 'Bia 100%_Lista',
      status: 'disabled',
    })
    await api.signIn('ana@lista.test', 'senha-ana-12')

    const all = await list('?q=LISTA')
    assert.equal(all.total, 3)
    assert.deepEqual(
      all.items.map((item) => item.name),
      ['Zeca Lista', 'Ana Lista', 'Bia 100%_Lista'],
    )
    assert.doesNotMatch(JSON.stringify(all), /scrypt|password/)
    const ana = all.items.find((item) => item.name === 'Ana Lista')!
    assert.ok(ana.lastSignInAt, 'a sign-in shows as the last sign-in')
    assert.equal(all.items.find((item) => item.name === 'Zeca Lista')!.lastSignInAt, null)

    // % and _ are searched for literally.
    assert.deepEqual(
      (await list('?q=100%25_')).items.map((item) => item.name),
      ['Bia 100%_Lista'],
    )
    assert.equal((await list('?q=0%25_L')).total, 1)
    assert.equal((await list('?q=nobody-here')).total, 0)
    assert.deepEqual(
      (await list('?q=lista&status=disabled')).items.map((i) => i.name),
      ['Bia 100%_Lista'],
    )
    assert.equal((await list('?q=lista&role=admin')).total, 0)
    assert.equal((await list('?q=lista&mfa=true')).total, 0)
    assert.equal((await list('?q=lista&mfa=false')).total, 3)
    assert.equal((await list('?q=lista&locked=false')).total, 3)
    assert.deepEqual(
      (await list('?q=lista&sort=-name')).items.map((i) => i.name),
      ['Zeca Lista', 'Bia 100%_Lista', 'Ana Lista'],
    )
    assert.equal((await list('?q=lista&sort=-lastSignInAt')).items[0]!.name, 'Ana Lista')
    assert.equal((await list('?q=lista&sort=createdAt')).items[0]!.name, 'Zeca Lista')

    const page2 = await list('?q=lista&sort=name&pageSize=2&page=2')
    assert.deepEqual([page2.total, page2.page, page2.pageSize], [3, 2, 2])
    assert.deepEqual(
      page2.items.map((i) => i.name),
      ['Zeca Lista'],
    )
  })

  it('refuses bad queries, ids and bodies with 400 and unknown ids with 404', async () => {
    for (const query of [
      '?status=gone',
      '?role=x',
      '?sort=email',
      '?page=0',
      '?pageSize=101',
      '?page=x',
      '?locked=1',
      '?extra=1',
    ]) {
      const response = await api.call('GET', `/api/staff${query}`, adminToken)
      assert.equal(response.statusCode, 400, query)
      assert.equal(code(response), 'invalid_input')
    }
    for (const [method, suffix] of [
      ['GET', ''],
      ['PATCH', ''],
      ['DELETE', ''],
      ['POST', '/unlock'],
      ['POST', '/sign-out'],
      ['POST', '/password-reset'],
      ['DELETE', '/mfa'],
    ] as const) {
      const bad = await api.call(
        method,
        `/api/staff/not-a-uuid${suffix}`,
        adminToken,
        method === 'PATCH' ? { status: 'active' } : undefined,
      )
      assert.equal(bad.statusCode, 400, `${method} bad id${suffix}`)
      const unknown = await api.call(
        method,
        `/api/staff/${crypto.randomUUID()}${suffix}`,
        adminToken,
        method === 'PATCH' ? { status: 'active' } : undefined,
      )
      assert.equal(unknown.statusCode, 404, `${method} unknown id${suffix}`)
      assert.equal(code(unknown), 'not_found')
    }
    const someone = await api.addAccount({
      email: 'x@bad.test',
      password: 'senha-x-1234',
      status: 'pending',
    })
    for (const body of [
      {},
      { status: 'pending' },
      { status: 'ACTIVE' },
      { role: 'root' },
      { status: 'active', extra: 1 },
      [],
      'active',
    ]) {
      const response = await api.call('PATCH', `/api/staff/${someone}`, adminToken, body)
      assert.equal(response.statusCode, 400, JSON.stringify(body))
    }
    for (const body of [
      {},
      { name: '', email: 'a@b.test', role: 'staff' },
      { name: 'A', email: 'not-mail', role: 'staff' },
      { name: 'A', email: 'a@b.test', role: 'root' },
      { name: '   ', email: 'a@b.test', role: 'staff' },
    ]) {
      const response = await api.call('POST', '/api/staff/invitations', adminToken, body)
      assert.equal(response.statusCode, 400, JSON.stringify(body))
    }
    assert.equal(
      (await api.call('DELETE', `/api/staff/${someone}`, adminToken, { reason: 'x'.repeat(501) }))
        .statusCode,
      400,
    )
  })

  it('refuses every action on your own account with 400 own_account, and writes nothing', async () => {
    const before = (await auditTypes(adminId)).length
    const own = [
      api.call('PATCH', `/api/staff/${adminId}`, adminToken, { status: 'disabled' }),
      api.call('PATCH', `/api/staff/${adminId.toUpperCase()}`, adminToken, { role: 'staff' }),
      api.call('DELETE', `/api/staff/${adminId}`, adminToken),
      api.call('POST', `/api/staff/${adminId}/unlock`, adminToken),
      api.call('POST', `/api/staff/${adminId}/sign-out`, adminToken),
      api.call('POST', `/api/staff/${adminId}/password-reset`, adminToken),
      api.call('DELETE', `/api/staff/${adminId}/mfa`, adminToken),
    ]
    for (const response of await Promise.all(own)) {
      assert.equal(response.statusCode, 400)
      assert.equal(code(response), 'own_account')
    }
    assert.equal((await auditTypes(adminId)).length, before)
    assert.equal((await api.call('GET', '/api/auth/me', adminToken)).statusCode, 200)
  })

  it('approves a pending registration (mail, audit), which then signs in', async () => {
    const id = await api.addAccount({
      email: 'nova@example.com',
      password: 'senha-nova-1',
      name: 'Nova',
      status: 'pending',
    })
    const response = await api.call('PATCH', `/api/staff/${id.toUpperCase()}`, adminToken, {
      status: 'active',
    })
    assert.equal(response.statusCode, 200)
    assert.equal(response.json<{ user: StaffItem }>().user.status, 'active')
    const mail = await api.mail.next('nova@example.com')
    assert.match(mail.subject, /aprovado/)
    assert.match(mail.text, /https:\/\/painel\.example\.com\/#\/login/)
    assert.match(mail.html ?? '', /<a href="https:\/\/painel\.example\.com\/#\/login">/)
    const events = await auditTypes(id)
    assert.deepEqual(
      events.map((event) => event.type),
      ['approved'],
    )
    assert.equal(events[0]!.actor!.id, adminId)
    assert.equal(
      (await api.post('/api/auth/login', { email: 'nova@example.com', password: 'senha-nova-1' }))
        .statusCode,
      200,
    )
  })

  it('disables (sessions end), re-enables, and changes the role, each in the audit log', async () => {
    const id = await api.addAccount({ email: 'sai@example.com', password: 'senha-sai-12' })
    const token = await api.signIn('sai@example.com', 'senha-sai-12')
    assert.equal(
      (await api.call('PATCH', `/api/staff/${id}`, adminToken, { status: 'disabled' })).statusCode,
      200,
    )
    assert.equal((await api.get('/api/auth/me', token)).statusCode, 401)
    assert.equal(
      code(
        await api.post('/api/auth/login', { email: 'sai@example.com', password: 'senha-sai-12' }),
      ),
      'account_disabled',
    )
    assert.equal(
      (await api.call('PATCH', `/api/staff/${id}`, adminToken, { status: 'active', role: 'admin' }))
        .statusCode,
      200,
    )
    const promoted = await api.signIn('sai@example.com', 'senha-sai-12')
    assert.equal((await api.call('GET', '/api/staff', promoted)).statusCode, 200)
    assert.equal(
      (await api.call('PATCH', `/api/staff/${id}`, adminToken, { role: 'staff' })).statusCode,
      200,
    )
    assert.equal((await api.call('GET', '/api/staff', promoted)).statusCode, 403)
    const types = (await auditTypes(id)).map((event) => event.type)
    assert.deepEqual(
      types.filter((type) => !type.startsWith('sign')),
      ['role_changed', 'role_changed', 'reenabled', 'disabled'],
    )
  })

  it('refuses to leave no active admin (409 last_admin), undoing the change and its event', async () => {
    // An actor who is no longer an admin in the database tries to demote the only active one.
    const other = await api.addAccount({ email: 'ex-admin@example.com', password: 'senha-ex-123' })
    const actor = await api.database.db
      .selectFrom('accounts')
      .selectAll()
      .where('id', '=', other)
      .executeTakeFirstOrThrow()
    // What this use case reads of the API's context (the rest is not used by it).
    const deps = {
      db: api.database.db,
      outbox: api.outbox,
      log: api.app.log,
      config: { publicUrl: 'https://x' },
    } as ApiContext
    const before = (await auditTypes(adminId)).length
    for (const change of [{ role: 'staff' as const }, { status: 'disabled' as const }]) {
      await assert.rejects(
        changeStaffAccount(
          deps,
          {
            actor,
            origin: { ip: null, userAgent: null },
            access: adminAccess,
          },
          adminId,
          change,
        ),
        (error: { statusCode?: number; code?: string }) =>
          error.statusCode === 409 && error.code === 'last_admin',
      )
    }
    const admin = (await list(`?q=${encodeURIComponent(ADMIN.email)}`)).items[0]!
    assert.deepEqual([admin.role, admin.status], ['admin', 'active'])
    assert.equal((await auditTypes(adminId)).length, before)
  })

  it('refuses and removes a pending registration (mail with the reason); 409 for others', async () => {
    const id = await api.addAccount({
      email: 'junk@example.com',
      password: 'senha-junk-1',
      name: 'Junk',
      status: 'pending',
    })
    const response = await api.call('DELETE', `/api/staff/${id}`, adminToken, {
      reason: 'Não conhecemos você.',
    })
    assert.equal(response.statusCode, 204)
    assert.equal(response.body, '')
    assert.equal((await api.call('GET', `/api/staff/${id}`, adminToken)).statusCode, 404)
    const mail = await api.mail.next('junk@example.com')
    assert.match(mail.text, /Motivo informado: Não conhecemos você\./)
    const events = await auditTypes(id)
    assert.equal(events[0]!.type, 'refused')
    // The e-mail may register again.
    assert.equal(
      (
        await api.post('/api/auth/register', {
          name: 'Junk',
          email: 'junk@example.com',
          password: 'senha-junk-2',
        })
      ).statusCode,
      202,
    )

    const active = await api.addAccount({ email: 'ativo@example.com', password: 'senha-ativo-1' })
    const refused = await api.call('DELETE', `/api/staff/${active}`, adminToken)
    assert.equal(refused.statusCode, 409)
    assert.equal(code(refused), 'not_pending')
    assert.equal((await auditTypes(active)).length, 0)
  })

  it('unlocks a locked account, ends sessions, mails reset links, and shows the account page', async () => {
    const id = await api.addAccount({ email: 'tranca@example.com', password: 'senha-tranca-1' })
    const token = await api.signIn('tranca@example.com', 'senha-tranca-1')
    for (let i = 0; i < 10; i++)
      await api.post('/api/auth/login', { email: 'tranca@example.com', password: 'errada-errada' })
    assert.equal(
      (
        await api.post('/api/auth/login', {
          email: 'tranca@example.com',
          password: 'senha-tranca-1',
        })
      ).statusCode,
      429,
    )
    // That address waits, but the account is locked (SignInLimits.isLocked) only when new
    // browsers everywhere must wait: its daily limit of password checks is used up.
    assert.equal((await list('?q=tranca&locked=true')).total, 0)
    const limits = new SignInLimits(api.database.db)
    for (let i = 0; i <= RULES.account.perWindow; i++) {
      if (await limits.isLocked('tranca@example.com')) break
      await limits.gate([limitKeys.account('tranca@example.com')])
    }
    assert.equal((await list('?q=tranca&locked=true')).items[0]?.locked, true)

    const page = await api.call('GET', `/api/staff/${id}`, adminToken)
    assert.equal(page.statusCode, 200)
    assert.equal(page.json<{ sessions: unknown[] }>().sessions.length, 1)

    assert.equal((await api.call('POST', `/api/staff/${id}/unlock`, adminToken)).statusCode, 204)
    assert.equal((await list('?q=tranca&locked=true')).total, 0)
    assert.equal((await api.call('POST', `/api/staff/${id}/sign-out`, adminToken)).statusCode, 204)
    assert.equal((await api.get('/api/auth/me', token)).statusCode, 401)
    assert.equal(
      (
        await api.post('/api/auth/login', {
          email: 'tranca@example.com',
          password: 'senha-tranca-1',
        })
      ).statusCode,
      200,
    )

    const reset = await api.call('POST', `/api/staff/${id}/password-reset`, adminToken)
    assert.equal(reset.statusCode, 202)
    const mail = await api.mail.next('tranca@example.com')
    const token2 = /token=([A-Za-z0-9_-]{43})/.exec(mail.text)![1]!
    assert.equal(
      (await api.post('/api/auth/password-reset', { token: token2, password: 'nova-senha-123' }))
        .statusCode,
      204,
    )
    assert.equal((await api.call('DELETE', `/api/staff/${id}/mfa`, adminToken)).statusCode, 204)

    const types = (await auditTypes(id)).map((event) => event.type)
    // No 'locked' here: the lock above came from the limits directly, not from sign-ins.
    for (const type of [
      'sign_in_failed',
      'unlocked',
      'session_ended',
      'reset_requested',
      'password_reset',
      'sign_in',
    ]) {
      assert.ok(types.includes(type), `${type} in ${types.join(', ')}`)
    }
    const pending = await api.addAccount({
      email: 'pend-reset@example.com',
      password: 'senha-pend-1',
      status: 'pending',
    })
    assert.equal(
      code(await api.call('POST', `/api/staff/${pending}/password-reset`, adminToken)),
      'not_active',
    )
  })

  it('ending the sessions of an account with none is answered, and not recorded', async () => {
    const quiet = await api.account('sem-sessao')
    const ended = await api.call('POST', `/api/staff/${quiet.id}/sign-out`, adminToken)
    assert.equal(ended.statusCode, 204)
    // '0 sessões encerradas' would tell of a change that did not happen.
    assert.deepEqual(await api.events(quiet.id, 'session_ended'), [])
    const person = await api.person('com-sessao')
    assert.equal(
      (await api.call('POST', `/api/staff/${person.id}/sign-out`, adminToken)).statusCode,
      204,
    )
    const [event] = await api.events(person.id, 'session_ended')
    assert.deepEqual(JSON.parse(event!.details), { sessions: 1, by: 'admin' })
  })

  it('invites someone, who sets a password from the mail (valid 7 days) and signs in', async () => {
    const response = await api.call('POST', '/api/staff/invitations', adminToken, {
      name: ' Convidada ',
      email: 'Convite@Example.com',
      role: 'admin',
    })
    assert.equal(response.statusCode, 201)
    const { user } = response.json<{ user: StaffItem }>()
    assert.deepEqual(
      [user.name, user.email, user.role, user.status],
      ['Convidada', 'convite@example.com', 'admin', 'invited'],
    )
    const mail = await api.mail.next('convite@example.com')
    assert.match(mail.text, /7 dias/)
    const link =
      /https:\/\/painel\.example\.com\/#\/recuperar-senha\?token=([A-Za-z0-9_-]{43})&convite=1/.exec(
        mail.text,
      )
    assert.ok(link, mail.text)
    const row = await api.database.db
      .selectFrom('password_resets')
      .select('expires_at')
      .where('account_id', '=', user.id)
      .executeTakeFirstOrThrow()
    const days = (new Date(row.expires_at).getTime() - Date.now()) / 86_400_000
    assert.ok(days > 6.9 && days <= 7, String(days))
    assert.equal(
      (await api.post('/api/auth/password-reset', { token: link[1], password: 'minha-senha-1' }))
        .statusCode,
      204,
    )
    assert.equal(
      (
        await api.post('/api/auth/login', {
          email: 'convite@example.com',
          password: 'minha-senha-1',
        })
      ).statusCode,
      200,
    )
    assert.deepEqual(
      (await auditTypes(user.id)).map((event) => event.type),
      ['sign_in', 'password_reset', 'invited'],
    )
    // Choosing a first password is no change to warn about; a later change is. (Mails go out in
    // order, so when the second is there, the first would be too.)
    const session = await api.signIn('convite@example.com', 'minha-senha-1')
    const changed = await api.post(
      '/api/auth/password',
      { currentPassword: 'minha-senha-1', newPassword: 'minha-senha-2' },
      { authorization: `Bearer ${session}` },
    )
    assert.equal(changed.statusCode, 204)
    const changedMail = await api.mail.withSubject('convite@example.com', PASSWORD_CHANGED)
    assert.match(changedMail.text, /Minha conta/)
    assert.equal(api.mail.sentWith('convite@example.com', PASSWORD_CHANGED).length, 1)

    const again = await api.call('POST', '/api/staff/invitations', adminToken, {
      name: 'X',
      email: 'convite@example.com',
      role: 'staff',
    })
    assert.equal(again.statusCode, 409)
    assert.equal(code(again), 'email_taken')
  })
})

describe(`the own-account and last-admin rules, whatever the id's spelling (${testStoreName()})`, () => {
  const spellings = (id: string) => [
    id,
    id.toUpperCase(),
    id.replace(/[a-f]/g, (c) => c.toUpperCase()),
  ]

  it('refuses an admin disabling himself with his id in any case (400 own_account)', async () => {
    const me = (await api.get('/api/auth/me', adminToken)).json<{ user: { id: string } }>()
    for (const id of spellings(me.user.id)) {
      const response = await setStatus(id, 'disabled')
      assert.equal(response.statusCode, 400, id)
      assert.equal(response.json<{ error: { code: string } }>().error.code, 'own_account')
    }
    assert.equal((await api.get('/api/auth/me', adminToken)).statusCode, 200)
  })

  it('answers 400 to an id that is not a plain UUID (urn:uuid:, braces), never 500', async () => {
    const someone = await api.addAccount({ email: 'urn@example.com', password: 'senha-urn-123' })
    for (const id of [
      `urn:uuid:${someone}`,
      `{${someone}}`,
      someone.replace(/-/g, ''),
      `${someone}%00`,
    ]) {
      const response = await setStatus(id, 'disabled')
      assert.equal(response.statusCode, 400, id)
      assert.equal(response.json<{ error: { code: string } }>().error.code, 'invalid_input')
    }
  })

  it('works on another account with its id in upper case', async () => {
    const someone = await api.addAccount({
      email: 'maiusculo@example.com',
      password: 'senha-mai-123',
    })
    const response = await setStatus(someone.toUpperCase(), 'disabled')
    assert.equal(response.statusCode, 200)
    assert.equal(response.json<{ user: { id: string; status: string } }>().user.id, someone)
  })

  it('two admins disabling each other at once: one wins, an active admin is left (409 last_admin)', async () => {
    const otherId = await api.addAccount({
      email: 'segundo-admin@example.com',
      password: 'senha-admin-2',
      role: 'admin',
    })
    const me = (await api.get('/api/auth/me', adminToken)).json<{ user: { id: string } }>()
    const otherToken = await api.signIn('segundo-admin@example.com', 'senha-admin-2')
    // Admins the tests above made stay out of it: these two are the only active ones.
    const bystanders = await api.database.db
      .updateTable('accounts')
      .set({ status: 'disabled' })
      .where('role', '=', 'admin')
      .where('status', '=', 'active')
      .where('id', 'not in', [otherId, me.user.id])
      .returning('id')
      .execute()
    const [mine, theirs] = await Promise.all([
      setStatus(otherId, 'disabled'),
      setStatus(me.user.id.toUpperCase(), 'disabled', otherToken),
    ])
    const statuses = [mine.statusCode, theirs.statusCode].sort()
    assert.ok(statuses[0] === 200 && statuses[1] !== 200, `${mine.body} ${theirs.body}`)
    const loser = mine.statusCode === 200 ? theirs : mine
    assert.ok(
      // The loser's own session may have ended first: its 401 says why.
      ['last_admin', 'session_account_disabled'].includes(
        loser.json<{ error: { code: string } }>().error.code,
      ),
      loser.body,
    )
    const active = await api.database.db
      .selectFrom('accounts')
      .select('id')
      .where('role', '=', 'admin')
      .where('status', '=', 'active')
      .execute()
    assert.equal(active.length, 1)
    // Put things back for the other tests.
    await api.database.db
      .updateTable('accounts')
      .set({ status: 'active' })
      .where('id', 'in', [otherId, me.user.id, ...bystanders.map((row) => row.id)])
      .execute()
  })
})

describe(`readiness (${testStoreName()})`, () => {
  it('/readyz is 200 while the database answers, and /healthz stays cheap', async () => {
    const ready = await api.get('/readyz')
    assert.equal(ready.statusCode, 200)
    assert.deepEqual(ready.json(), { status: 'ready' })
    assert.deepEqual((await api.get('/healthz')).json(), { status: 'ok' })
  })
})
