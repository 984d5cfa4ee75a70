import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { AuditDetails, AuditType } from '../../../common/api/audit'
import type { SignedIn } from '../../../common/api/auth'
import type { RecoveryCodes, TotpSetup } from '../../../common/api/me'
import type { NoticePreferences } from '../../../common/api/notices'
import { totpCode } from '../../accounts/totp'
import { pruneAudit } from '../../audit-log/audit-query'
import { limitKeys, RULES, SignInLimits } from '../../accounts/sign-in-limits'
import { DEVICE_COOKIE } from '../../accounts/trusted-devices'
import { securityNoticeKind } from '../../security-notices/security-notice-kinds'
import { ADMIN, errorOf } from '../../test/api-fixture'
import { signedInAdminFixture } from '../../test/signed-in-admin-fixture'
import { testStoreName } from '../../test/test-database'
import { FIREFOX_LINUX } from '../../test/user-agents'

const NEW_BROWSER = 'Painel: entrada de um navegador novo'
const suite = signedInAdminFixture()

/** A password sign-in from a browser with this device cookie (or none): token and new cookie. */
async function signInFrom(email: string, password: string, deviceCookie?: string) {
  const response = await suite.api.post(
    '/api/auth/login',
    { email, password },
    {
      'user-agent': FIREFOX_LINUX,
      ...(deviceCookie ? { cookie: `${DEVICE_COOKIE}=${deviceCookie}` } : {}),
    },
  )
  assert.equal(response.statusCode, 200, response.body)
  const cookie = response.cookies.find((c) => c.name === DEVICE_COOKIE)
  assert.ok(cookie, 'the sign-in gives the browser a device cookie')
  return { token: response.json<SignedIn>().token, device: cookie.value }
}

/** Every mail sent so far to this address with this subject, after the outbox has sent all. */
async function mailsTo(email: string, subject: string) {
  await suite.api.deliverMail()
  return suite.api.mail.sentWith(email, subject)
}

/**
 * The notices the log says were sent to this account, oldest first: each is said by the event
 * that caused it (`notice: true`), never by an event of its own (the log once doubled).
 */
async function noticesSent(accountId: string) {
  const events = await suite.api.database.db
    .selectFrom('audit_events')
    .select(['type', 'details'])
    .where('account_id', '=', accountId)
    .orderBy('at')
    .orderBy('id')
    .execute()
  assert.deepEqual(
    events.filter((event) => event.type === 'notice_sent'),
    [],
    'no event of its own for a notice',
  )
  return events.flatMap((event) => {
    const details = JSON.parse(event.details) as AuditDetails
    if (details.notice !== true) return []
    return [securityNoticeKind(event.type as AuditType, details) ?? `${event.type}?`]
  })
}

describe(`security notices (${testStoreName()})`, () => {
  it('mails a sign-in from a browser new to the account, never one from a known browser', async () => {
    const ana = await suite.api.account('aviso', { name: 'Ana Aviso' })
    // The first sign-in ever is the person arriving: nothing to warn about.
    const first = await signInFrom(ana.email, ana.password)
    assert.deepEqual(await mailsTo(ana.email, NEW_BROWSER), [])

    // The same browser again (its device cookie): still nothing.
    await signInFrom(ana.email, ana.password, first.device)
    assert.deepEqual(await mailsTo(ana.email, NEW_BROWSER), [])

    // Another browser: no cookie of this account.
    suite.clock.advance(60_000)
    await signInFrom(ana.email, ana.password)
    const [mail, ...more] = await mailsTo(ana.email, NEW_BROWSER)
    assert.equal(more.length, 0)
    assert.ok(mail)
    assert.match(mail.text, /Olá, Ana Aviso\./)
    assert.match(mail.text, /navegador que nunca tinha entrado nela/)
    assert.match(mail.text, /\d{2}\/\d{2}\/\d{4},? \d{2}:\d{2} \(horário de Brasília\)/)
    assert.match(mail.text, /a partir do endereço 127\.0\.0\.1/)
    assert.match(mail.text, /com Firefox no Linux/)
    assert.match(mail.text, /Não foi você\?/)
    assert.match(mail.text, /https:\/\/painel\.example\.com\/#\/perfil/)
    assert.match(mail.text, /https:\/\/painel\.example\.com\/#\/recuperar-senha/)
    assert.deepEqual(await noticesSent(ana.id), ['new_browser'])
    const [signIn] = (await suite.api.events(ana.id, 'sign_in')).slice(-1)
    assert.equal((JSON.parse(signIn!.details) as { new_browser?: boolean }).new_browser, true)
  })

  it('a device cookie of another account is a new browser for this one', async () => {
    const bia = await suite.api.account('aviso')
    const caio = await suite.api.account('aviso')
    await signInFrom(bia.email, bia.password)
    const caios = await signInFrom(caio.email, caio.password)
    await signInFrom(bia.email, bia.password, caios.device)
    assert.equal((await mailsTo(bia.email, NEW_BROWSER)).length, 1)
  })

  it('lets the person turn the new-browser notice off and on, audited; the others stay', async () => {
    const dani = await suite.api.person('aviso')
    const initial = await suite.api.call('GET', '/api/me/notices', dani.token)
    assert.equal(initial.statusCode, 200)
    assert.equal(initial.headers['cache-control'], 'no-store')
    assert.deepEqual(initial.json<NoticePreferences>(), { newBrowser: true })

    const off = await suite.api.call('PATCH', '/api/me/notices', dani.token, { newBrowser: false })
    assert.equal(off.statusCode, 200, off.body)
    assert.deepEqual(off.json<NoticePreferences>(), { newBrowser: false })
    assert.deepEqual(
      (await suite.api.call('GET', '/api/me/notices', dani.token)).json<NoticePreferences>(),
      { newBrowser: false },
    )
    await signInFrom(dani.email, dani.password)
    assert.deepEqual(await mailsTo(dani.email, NEW_BROWSER), [])
    assert.deepEqual(await noticesSent(dani.id), [])
    const changes = await suite.api.events(dani.id, 'notices_changed')
    assert.deepEqual(
      changes.map((event) => JSON.parse(event.details) as unknown),
      [{ new_browser: false }],
    )

    // A notice that is not optional still goes while the new-browser one is off.
    const setup = (await suite.api.call('POST', '/api/me/totp', dani.token)).json<TotpSetup>()
    const confirmed = await suite.api.call('POST', '/api/me/totp/confirm', dani.token, {
      code: totpCode(setup.secret, suite.clock.now()),
    })
    assert.equal(confirmed.statusCode, 200, confirmed.body)
    assert.equal((await mailsTo(dani.email, 'Painel: segundo fator ativado')).length, 1)

    await suite.api.call('PATCH', '/api/me/notices', dani.token, { newBrowser: true })
    suite.clock.advance(30_000)
    const step = await suite.api.passwordStep(dani.email, dani.password)
    const signed = await suite.api.post('/api/auth/login/mfa', {
      challenge: step.challenge,
      code: totpCode(setup.secret, suite.clock.now()),
    })
    assert.equal(signed.statusCode, 200, signed.body)
    assert.equal((await mailsTo(dani.email, NEW_BROWSER)).length, 1)
  })

  it('refuses a malformed preference, and a caller without a session', async () => {
    const eva = await suite.api.person('aviso')
    for (const body of [{}, { newBrowser: 'no' }, { newBrowser: true, other: 1 }]) {
      const response = await suite.api.call('PATCH', '/api/me/notices', eva.token, body)
      assert.equal(response.statusCode, 400, JSON.stringify(body))
    }
    assert.equal((await suite.api.call('GET', '/api/me/notices')).statusCode, 401)
    assert.equal(
      (await suite.api.call('PATCH', '/api/me/notices', undefined, { newBrowser: false }))
        .statusCode,
      401,
    )
    assert.deepEqual(
      (await suite.api.call('GET', '/api/me/notices', eva.token)).json<NoticePreferences>(),
      { newBrowser: true },
    )
  })

  it('says who did it: the person in their own session, or the admin by name', async () => {
    const fabi = await suite.api.person('aviso', { name: 'Fabi Aviso' })
    const setup = (await suite.api.call('POST', '/api/me/totp', fabi.token)).json<TotpSetup>()
    const { recoveryCodes } = (
      await suite.api.call('POST', '/api/me/totp/confirm', fabi.token, {
        code: totpCode(setup.secret, suite.clock.now()),
      })
    ).json<RecoveryCodes>()
    const [on] = await mailsTo(fabi.email, 'Painel: segundo fator ativado')
    assert.match(on!.text, /feita na sua própria sessão, em Minha conta/)
    assert.match(on!.text, /Se foi você, não precisa fazer nada\./)

    // A recovery code used to sign in: how many are left.
    const step = await suite.api.passwordStep(fabi.email, fabi.password)
    const used = await suite.api.post('/api/auth/login/mfa', {
      challenge: step.challenge,
      code: recoveryCodes[0],
    })
    assert.equal(used.statusCode, 200, used.body)
    const [code] = await mailsTo(fabi.email, 'Painel: código de recuperação usado')
    assert.match(code!.text, /Restam 9 códigos/)

    // An admin removes the second factors (a lost phone), then makes them an admin.
    const removed = await suite.api.call('DELETE', `/api/staff/${fabi.id}/mfa`, suite.adminToken)
    assert.equal(removed.statusCode, 204, removed.body)
    const [off] = await mailsTo(fabi.email, 'Painel: segundo fator desativado')
    assert.match(off!.text, new RegExp(`foi .+ \\(${ADMIN.email}\\), da administração do Painel`))
    assert.match(off!.text, /fale com quem administra o Painel/)

    const promoted = await suite.api.call('PATCH', `/api/staff/${fabi.id}`, suite.adminToken, {
      role: 'admin',
    })
    assert.equal(promoted.statusCode, 200, promoted.body)
    const [role] = await mailsTo(fabi.email, 'Painel: seu papel foi alterado')
    assert.match(role!.text, /de Equipe para Administrador/)
    assert.match(role!.text, new RegExp(`\\(${ADMIN.email}\\)`))

    // Then places them in a team: the team's name, and who did it.
    const team = await suite.api.call('POST', '/api/teams', suite.adminToken, {
      name: 'Time do Aviso',
    })
    assert.equal(team.statusCode, 201, team.body)
    const placed = await suite.api.call('PATCH', `/api/staff/${fabi.id}`, suite.adminToken, {
      teamId: team.json<{ team: { id: string } }>().team.id,
    })
    assert.equal(placed.statusCode, 200, placed.body)
    const [moved] = await mailsTo(fabi.email, 'Painel: seu time foi alterado')
    assert.match(moved!.text, /de nenhum time para «Time do Aviso»/)
    assert.match(moved!.text, new RegExp(`\\(${ADMIN.email}\\)`))

    const notices = await noticesSent(fabi.id)
    for (const kind of [
      'mfa_enabled',
      'recovery_code_used',
      'mfa_disabled',
      'role_changed',
      'team_changed',
    ]) {
      assert.ok(notices.includes(kind), `${kind} in ${notices.join(', ')}`)
    }
  })

  it('tells the owner of a lock by failed attempts, as an automatic lock', async () => {
    const gil = await suite.api.account('aviso')
    // New browsers everywhere have used up all but one of the account's daily password checks.
    const limits = new SignInLimits(suite.api.database.db)
    for (let i = 1; i < RULES.account.perWindow; i++) {
      await limits.gate([limitKeys.account(gil.email)])
    }
    const last = await suite.api.post('/api/auth/login', { email: gil.email, password: 'errada-1' })
    assert.equal(errorOf(last).code, 'invalid_credentials')
    const after = await suite.api.post('/api/auth/login', {
      email: gil.email,
      password: 'errada-1',
    })
    assert.equal(after.statusCode, 429)
    const [locked, ...again] = await mailsTo(
      gil.email,
      'Painel: conta bloqueada por tentativas erradas',
    )
    assert.ok(locked, 'a lock notice')
    assert.equal(again.length, 0, 'one notice per lock')
    assert.match(locked.text, /O bloqueio foi automático\./)
    assert.deepEqual(await noticesSent(gil.id), ['locked'])
  })

  // Last: it moves the clock a year on, past every other test's sessions.
  it('still tells a dormant account once the audit log has pruned its sign-ins', async () => {
    const dora = await suite.api.account('aviso', { name: 'Dora Dormente' })
    await signInFrom(dora.email, dora.password)
    // A year and more without signing in: AUDIT_RETENTION's housekeeping takes its sign-in.
    suite.clock.advance(400 * 86_400_000)
    await pruneAudit(suite.api.database.db, 365, suite.clock.now())
    assert.deepEqual(await suite.api.events(dora.id, 'sign_in'), [], 'the log forgot it')
    // A leaked password tried on it from a new browser: the account remembers, so she is told.
    await signInFrom(dora.email, dora.password)
    assert.equal((await mailsTo(dora.email, NEW_BROWSER)).length, 1)
  })
})
