import { randomUUID } from 'node:crypto'
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { MyData } from '../../../common/api/my-data'
import type { TotpSetup } from '../../../common/api/me'
import { totpCode } from '../../accounts/totp'
import { recordAudit } from '../../audit-log/record-audit'
import { ADMIN, apiFixture, errorOf, type ApiFixture } from '../../test/api-fixture'
import { TestClock } from '../../test/test-clock'
import { testStoreName } from '../../test/test-database'
import { EXPORTS_PER_HOUR } from './my-data-routes'

const clock = new TestClock()
let api: ApiFixture
before(async () => {
  api = await apiFixture({ authRateLimit: 1_000_000, clock: clock.now })
})
after(() => api.close())

const exportOf = (token?: string) => api.call('GET', '/api/me/export', token)

describe(`GET /api/me/export (${testStoreName()})`, () => {
  it('is a JSON attachment of everything held about the person, and no secret', async () => {
    const ana = await api.person('dados', { name: 'Ana Dados' })
    // Something in each part: a second factor, a failed try, an admin's change, a notice.
    const setup = (await api.call('POST', '/api/me/totp', ana.token)).json<TotpSetup>()
    await api.call('POST', '/api/me/totp/confirm', ana.token, {
      code: totpCode(setup.secret, clock.now()),
    })
    await api.post('/api/auth/login', { email: ana.email, password: 'errada-123' })
    const adminToken = await api.signIn(ADMIN.email, ADMIN.password)
    await api.call('PATCH', `/api/staff/${ana.id}`, adminToken, { role: 'admin' })
    await api.call('POST', '/api/me/email', ana.token, {
      email: 'ana.outra@example.com',
      password: ana.password,
    })
    // An admin's open link to connect a provider (sent through Equipe where providers exist).
    await api.database.db
      .insertInto('provider_link_invitations')
      .values({
        id: randomUUID(),
        account_id: ana.id,
        provider: 'corp',
        token_hash: 'f'.repeat(64),
        invited_by: randomUUID(),
        created_at: clock.now(),
        expires_at: new Date(clock.now().getTime() + 86_400_000),
      })
      .execute()
    await api.deliverMail()

    const response = await exportOf(ana.token)
    assert.equal(response.statusCode, 200, response.body)
    assert.match(response.headers['content-type'] as string, /^application\/json/)
    assert.match(
      response.headers['content-disposition'] as string,
      /^attachment; filename="painel-meus-dados-\d{4}-\d{2}-\d{2}\.json"$/,
    )
    assert.equal(response.headers['cache-control'], 'no-store')
    const data = response.json<MyData>()
    assert.equal(data.account.id, ana.id)
    assert.equal(data.account.name, 'Ana Dados')
    assert.equal(data.account.email, ana.email)
    assert.equal(data.account.role, 'admin')
    assert.equal(data.account.newBrowserNotice, true)
    assert.equal(data.sessions.length, 1)
    assert.equal(data.sessions[0]!.ip, '127.0.0.1')
    assert.ok(data.browsers.length >= 1)
    assert.deepEqual(data.secondFactor.totp, true)
    assert.equal(data.secondFactor.recoveryCodesLeft, 10)
    assert.deepEqual(
      data.emailChanges.map((change) => change.newEmail),
      ['ana.outra@example.com'],
    )
    assert.deepEqual(
      data.providerLinkInvitations.map((invitation) => invitation.provider),
      ['corp'],
    )
    const kinds = new Set(data.mails.map((mail) => mail.kind))
    for (const kind of ['security_notice', 'email_change_asked', 'email_change_confirm']) {
      assert.ok(kinds.has(kind), `${kind} in ${[...kinds].join(', ')}`)
    }
    const types = new Set(data.auditEvents.map((event) => event.type))
    for (const type of [
      'sign_in',
      'sign_in_failed',
      'mfa_enabled',
      'role_changed',
      'email_change_requested',
      'data_exported',
    ]) {
      assert.ok(types.has(type as never), `${type} in ${[...types].join(', ')}`)
    }
    // Events by the admin about Ana are hers too; the admin's own sign-ins are not.
    assert.ok(data.auditEvents.every((e) => e.account?.id === ana.id || e.actor?.id === ana.id))

    // No secret: no hash, no TOTP secret, no session or link token.
    const stored = await api.database.db
      .selectFrom('accounts')
      .select('password_hash')
      .where('id', '=', ana.id)
      .executeTakeFirstOrThrow()
    for (const secret of [stored.password_hash, setup.secret, ana.token, ana.password]) {
      assert.ok(!response.body.includes(secret), 'a secret in the export')
    }
    assert.doesNotMatch(response.body, /[0-9a-f]{64}/, 'no SHA-256 of a token')
    const exported = await api.events(ana.id, 'data_exported')
    assert.equal(exported.length, 1)
  })

  it('holds the events of others that quote the person’s address, and no other address’s', async () => {
    const eva = await api.person('quem-tentou', { name: 'Eva Tentada' })
    // As a sign-in tried with the address before the account had it is written (no account).
    await recordAudit(api.database.db, {
      type: 'sign_in_failed',
      origin: { ip: '203.0.113.9', userAgent: 'Quem tentou' },
      details: { method: 'password', email: eva.email.toUpperCase() },
    })
    // Another person's address that contains Eva's is not hers.
    await recordAudit(api.database.db, {
      type: 'sign_in_failed',
      details: { method: 'password', email: `x${eva.email}` },
    })
    const data = (await exportOf(eva.token)).json<MyData>()
    const tried = data.auditEvents.filter(
      (event) => event.type === 'sign_in_failed' && event.account === null,
    )
    assert.deepEqual(
      tried.map((event) => event.details.email),
      [eva.email.toUpperCase()],
    )
    // Where the try came from is whoever tried's.
    assert.deepEqual(
      tried.map((event) => [event.ip, event.userAgent]),
      [[null, null]],
    )

    // Someone who asks to change their address to Eva's gets none of her events.
    const mal = await api.person('quer-o-dela')
    const asked = await api.call('POST', '/api/me/email', mal.token, {
      email: eva.email,
      password: mal.password,
    })
    assert.ok(asked.statusCode < 300, asked.body)
    const theirs = (await exportOf(mal.token)).json<MyData>()
    assert.deepEqual(
      theirs.auditEvents.filter((event) => JSON.stringify(event).includes(eva.email)),
      [],
    )
  })

  it("names a team manager's role and team, and each notice mail by its subject", async () => {
    const adminToken = await api.signIn(ADMIN.email, ADMIN.password)
    const team = (await api.call('POST', '/api/teams', adminToken, { name: 'Time Carta' })).json<{
      team: { id: string }
    }>().team
    const role = (
      await api.call('POST', '/api/roles', adminToken, {
        name: 'Gerente da carta',
        description: '',
        permissions: ['staff.view'],
        scope: 'team',
      })
    ).json<{ role: { id: string } }>().role
    const gil = await api.person('carta', { name: 'Gil Gerente' })
    const changed = await api.call('PATCH', `/api/staff/${gil.id}`, adminToken, {
      roleId: role.id,
      teamId: team.id,
    })
    assert.equal(changed.statusCode, 200, changed.body)
    // The change of role and of team each mail Gil a security notice, composed when sent.
    await api.deliverMail()

    const data = (await exportOf(gil.token)).json<MyData>()
    assert.equal(data.account.role, 'staff')
    assert.equal(data.account.roleName, 'Gerente da carta')
    assert.equal(data.account.teamName, 'Time Carta')
    const notices = data.mails.filter((mail) => mail.kind === 'security_notice')
    assert.ok(notices.length >= 2, JSON.stringify(data.mails))
    assert.deepEqual(notices.map((mail) => mail.subject).sort(), [
      'Painel: seu papel foi alterado',
      'Painel: seu time foi alterado',
    ])

    const ana = await api.person('carta-sem-time')
    const alone = (await exportOf(ana.token)).json<MyData>()
    assert.equal(alone.account.roleName, 'Equipe')
    assert.equal(alone.account.teamName, null)
  })

  it(`is limited to ${EXPORTS_PER_HOUR} an hour per person, not per address`, async () => {
    const bia = await api.person('dados')
    const caio = await api.person('dados')
    for (let i = 0; i < EXPORTS_PER_HOUR; i += 1) {
      assert.equal((await exportOf(bia.token)).statusCode, 200)
    }
    const refused = await exportOf(bia.token)
    assert.equal(refused.statusCode, 429)
    assert.equal(errorOf(refused).code, 'too_many_attempts')
    assert.ok(refused.headers['retry-after'])
    assert.equal((await exportOf(caio.token)).statusCode, 200)
    assert.equal((await api.events(bia.id, 'data_exported')).length, EXPORTS_PER_HOUR)
  })

  it('needs a session', async () => {
    assert.equal((await exportOf()).statusCode, 401)
    assert.equal((await exportOf('x'.repeat(43))).statusCode, 401)
  })
})
