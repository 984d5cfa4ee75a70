import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { LightMyRequestResponse } from 'fastify'
import type { RoleAnswer, TeamAnswer } from '../../../common/api/roles'
import type { LinkInvitation } from '../../../common/api/provider-links'
import type { StaffAccount } from '../../../common/api/staff'
import type { MfaRequired } from '../../../common/api/auth'
import type { TotpSetup } from '../../../common/api/me'
import { totpCode } from '../../accounts/totp'
import { newToken } from '../../accounts/tokens'
import { ADMIN, apiFixture, errorOf, PUBLIC_URL, type ApiFixture } from '../../test/api-fixture'
import {
  registeredProvider,
  startOidcTestProvider,
  testProviderSettings,
  type OidcTestProvider,
} from '../../test/oidc-test-provider'
import { loginQuery } from '../../test/provider-sign-in'
import { TEAM_MANAGER } from '../../test/sample-roles'
import { testStoreName } from '../../test/test-database'

/**
 * An admin's link to connect a provider (send-link-invitation.ts, link-by-invitation.ts) through
 * app.inject(), against the real test provider on loopback. Its people claim e-mails it does not
 * vouch for: without the link, each would end in `link_required` (or find no account at all).
 */

const NAME = 'corp'
const corp = registeredProvider(NAME, PUBLIC_URL)
/** A provider whose ALLOWED_DOMAINS lets only a vouched-for example.com in. */
const STRICT = 'strict'
const strict = registeredProvider(STRICT, PUBLIC_URL)
/** One unverified identity per test: once linked, a subject is found by its link. */
const unverified = (id: string, email = `${id}@provedor.example`) => ({
  id,
  email,
  emailVerified: false,
})
const SUBJECTS = ['lia', 'mia', 'nina', 'otto', 'pia', 'rui', 'sol', 'tais', 'ugo', 'vera', 'xavi']
const SUBJECT = 'Painel: vincule o provedor de identidade «Corp» à sua conta'

let op: OidcTestProvider
let api: ApiFixture
let admin: string

before(async () => {
  op = await startOidcTestProvider({
    clients: [corp.client, strict.client],
    accounts: SUBJECTS.map((id) => unverified(id)),
  })
  api = await apiFixture({
    authProviders: [
      corp.settings(op.issuer, { buttonText: 'Entrar com Corp' }),
      strict.settings(op.issuer, {
        buttonText: 'Entrar com Estrito',
        allowedDomains: ['example.com'],
      }),
      // Nothing listens on port 9 (discard): a provider that cannot be reached.
      testProviderSettings({
        name: 'down',
        issuerUrl: 'http://127.0.0.1:9',
        buttonText: 'Entrar com Fora',
      }),
    ],
    authRateLimit: 10_000,
  })
  admin = await api.signIn(ADMIN.email, ADMIN.password)
})
after(async () => {
  await api.close()
  await op.stop()
})

/** Which app a helper calls, and the admin's session there (the main one unless told). */
interface On {
  api: ApiFixture
  admin: string
}
const main = (): On => ({ api, admin })

const invite = (accountId: string, token = admin, provider = NAME, on = main()) =>
  on.api.call('POST', `/api/staff/${accountId}/provider-link-invitations`, token, { provider })

/** The admin sends; the token of the link the person's mail carries (the newest one). */
async function sendAndRead(
  person: { id: string; email: string },
  provider = NAME,
  subject = SUBJECT,
  on = main(),
): Promise<string> {
  const sent = await invite(person.id, on.admin, provider, on)
  assert.equal(sent.statusCode, 202, sent.body)
  await on.api.deliverMail()
  const mails = on.api.mail.sentWith(person.email, subject)
  const text = mails.at(-1)?.text ?? ''
  const token = new RegExp(`${PUBLIC_URL}/#/vincular\\?token=([A-Za-z0-9_-]{43})`).exec(text)?.[1]
  assert.ok(token, `no link in: ${text}`)
  return token
}

/** The link's button: the provider's URL and the pending sign-in's cookie. */
async function start(token: string, on = main()): Promise<{ url: string; cookie: string }> {
  const started = await on.api.post('/api/auth/oidc/link-invitation/start', { token })
  assert.equal(started.statusCode, 200, started.body)
  const [cookie = ''] = ([] as string[]).concat(started.headers['set-cookie'] ?? [])
  return { url: started.json<{ url: string }>().url, cookie: cookie.split(';')[0] ?? '' }
}

/** The provider's page as `login`, then the callback with the browser's cookie. */
async function comeBack(begun: { url: string; cookie: string }, login: string, on = main()) {
  const back = await op.signIn(begun.url, login)
  const returned = await on.api.app.inject({
    method: 'GET',
    url: back.pathname + back.search,
    headers: { cookie: begun.cookie },
  })
  assert.equal(returned.statusCode, 302, returned.body)
  return returned
}

/** The session the login page gets for the callback's hand-off code. */
async function exchange(callback: LightMyRequestResponse, on = main()) {
  const code = loginQuery(callback).get('sso')
  assert.ok(code, `no hand-off code: ${String(callback.headers.location)}`)
  const answer = await on.api.post('/api/auth/oidc/exchange', { code })
  assert.equal(answer.statusCode, 200, answer.body)
  return answer.json<{ token: string; user: { id: string } }>()
}

const linksOf = (accountId: string) =>
  api.database.db
    .selectFrom('provider_links')
    .select(['provider', 'subject', 'issuer'])
    .where('account_id', '=', accountId)
    .execute()

const detailsOf = async (accountId: string, type: string) =>
  (await api.events(accountId, type)).map(
    (event) => JSON.parse(event.details ?? '{}') as Record<string, unknown>,
  )

describe(`an admin's link to connect a provider (${testStoreName()})`, () => {
  it('mails the person; their unverified identity is linked to the account and signed in', async () => {
    const lia = await api.account('lia', { name: 'Lia Prado' })
    // The provider claims Lia's e-mail without vouching for it: on its own, that links nothing.
    op.setAccount(unverified('lia', lia.email))
    const plain = await api.app.inject({ method: 'GET', url: `/api/auth/oidc/${NAME}/start` })
    const [plainCookie = ''] = ([] as string[]).concat(plain.headers['set-cookie'] ?? [])
    const refused = await comeBack(
      { url: String(plain.headers.location), cookie: plainCookie.split(';')[0] ?? '' },
      'lia',
    )
    assert.equal(loginQuery(refused).get('sso_error'), 'link_required')

    const token = await sendAndRead(lia)
    const mail = api.mail.sentWith(lia.email, SUBJECT)[0]!
    assert.match(mail.text, /Olá, Lia Prado\./)
    // The provider by its label, after the word "provedor": right whatever the label.
    assert.match(
      mail.text,
      /vincular a sua conta do provedor de identidade «Corp» à sua conta do Painel/,
    )
    assert.match(mail.text, /pelo botão "Entrar com Corp"/)
    assert.match(mail.text, new RegExp(`${ADMIN.email.replace('.', '\\.')}`))
    assert.match(mail.text, /24 horas/)
    assert.match(mail.text, /ignore-o/)
    const [invited] = await api.events(lia.id, 'provider_link_invited')
    assert.equal(invited?.actor_email, ADMIN.email)
    assert.deepEqual(JSON.parse(invited?.details ?? '{}'), { provider: NAME })
    // Only the token's hash is kept.
    const row = await api.database.db
      .selectFrom('provider_link_invitations')
      .selectAll()
      .where('account_id', '=', lia.id)
      .executeTakeFirstOrThrow()
    assert.notEqual(row.token_hash, token)

    const page = await api.post('/api/auth/oidc/link-invitation', { token })
    assert.equal(page.statusCode, 200, page.body)
    const shown = page.json<LinkInvitation>()
    assert.deepEqual(
      { ...shown, expiresAt: undefined },
      { name: 'Lia Prado', email: lia.email, provider: NAME, label: 'Corp', expiresAt: undefined },
    )

    const begun = await start(token)
    assert.match(begun.url, new RegExp(`^${op.issuer}/`))
    const callback = await comeBack(begun, 'lia')
    const { token: session, user } = await exchange(callback)
    assert.equal(user.id, lia.id)
    assert.equal((await api.get('/api/auth/me', session)).statusCode, 200)
    assert.deepEqual(await linksOf(lia.id), [{ provider: NAME, subject: 'lia', issuer: op.issuer }])
    assert.deepEqual(await detailsOf(lia.id, 'provider_linked'), [
      { provider: NAME, by: 'admin_link', notice: true },
    ])
    await api.deliverMail()
    const notices = api.mail.sentWith(lia.email, 'Painel: provedor de identidade vinculado')
    assert.equal(notices.length, 1, 'the security notice goes to the person')
    assert.match(notices[0]!.text, /com o link que a administração do Painel enviou ao seu e-mail/)
    // Used up with the link; and Equipe lists the provider as linked, no longer as linkable.
    assert.equal(
      (await api.post('/api/auth/oidc/link-invitation', { token })).statusCode,
      400,
      'a used link is dead',
    )
    const page2 = await api.get(`/api/staff/${lia.id}`, admin)
    const { signIn } = page2.json<StaffAccount>()
    assert.deepEqual(signIn.providers, ['Corp'])
    assert.deepEqual(signIn.linkable, [
      { name: STRICT, label: 'Estrito' },
      { name: 'down', label: 'Fora' },
    ])
    // From now on the provider alone signs in.
    const started = await api.app.inject({ method: 'GET', url: `/api/auth/oidc/${NAME}/start` })
    const [cookie = ''] = ([] as string[]).concat(started.headers['set-cookie'] ?? [])
    const again = await comeBack(
      { url: String(started.headers.location), cookie: cookie.split(';')[0] ?? '' },
      'lia',
    )
    assert.equal((await exchange(again)).user.id, lia.id)
  })

  it('refuses a replayed, forged, malformed or expired link, and links nothing', async () => {
    const mia = await api.account('mia')
    const token = await sendAndRead(mia)
    // Its last letter changed (a token that ends in A would stay itself: one run in 64).
    const nearMiss = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`
    for (const bad of [newToken(), 'nao-e-um-token', nearMiss]) {
      for (const url of [
        '/api/auth/oidc/link-invitation',
        '/api/auth/oidc/link-invitation/start',
      ]) {
        const answer = await api.post(url, { token: bad })
        assert.equal(answer.statusCode, 400, `${url} ${bad}: ${answer.body}`)
        assert.equal(errorOf(answer).code, 'invalid_or_expired_link_invitation')
      }
    }
    // Expired while the person was at the provider: refused at the callback.
    const begun = await start(token)
    await api.database.db
      .updateTable('provider_link_invitations')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('account_id', '=', mia.id)
      .execute()
    const late = await comeBack(begun, 'mia')
    assert.equal(loginQuery(late).get('sso_error'), 'invitation_expired')
    assert.deepEqual(await linksOf(mia.id), [])
    assert.equal((await api.post('/api/auth/oidc/link-invitation', { token })).statusCode, 400)

    // A replayed callback: the pending sign-in's cookie and the code are single use.
    const fresh = await sendAndRead(mia)
    const second = await start(fresh)
    const back = await op.signIn(second.url, 'mia')
    const first = await api.app.inject({
      method: 'GET',
      url: back.pathname + back.search,
      headers: { cookie: second.cookie },
    })
    assert.ok(loginQuery(first).get('sso'))
    const replay = await api.app.inject({
      method: 'GET',
      url: back.pathname + back.search,
      headers: { cookie: second.cookie },
    })
    assert.ok(loginQuery(replay).get('sso_error'), String(replay.headers.location))
    assert.equal((await linksOf(mia.id)).length, 1)
  })

  it("an account with an authenticator app still gives its code after the provider, as at any provider's sign-in", async () => {
    const zara = await api.person('zara')
    const setup = (await api.call('POST', '/api/me/totp', zara.token)).json<TotpSetup>()
    const on = await api.call('POST', '/api/me/totp/confirm', zara.token, {
      code: totpCode(setup.secret, new Date()),
    })
    assert.equal(on.statusCode, 200, on.body)
    op.setAccount(unverified('zara'))
    const callback = await comeBack(await start(await sendAndRead(zara)), 'zara')
    // Linked at the callback; the session waits for the second factor.
    assert.equal((await linksOf(zara.id)).length, 1)
    const code = loginQuery(callback).get('sso')
    const answer = await api.post('/api/auth/oidc/exchange', { code })
    assert.equal(answer.statusCode, 200, answer.body)
    const { mfa } = answer.json<Partial<MfaRequired> & { token?: string }>()
    assert.ok(mfa, answer.body)
    assert.equal('token' in answer.json<object>(), false)
    const finished = await api.post('/api/auth/login/mfa', {
      challenge: mfa.challenge,
      code: totpCode(setup.secret, new Date(Date.now() + 30_000)),
    })
    assert.equal(finished.statusCode, 200, finished.body)
    assert.equal(finished.json<{ user: { id: string } }>().user.id, zara.id)
  })

  it('a newer link replaces the older', async () => {
    const nina = await api.account('nina')
    const older = await sendAndRead(nina)
    const newer = await sendAndRead(nina)
    assert.notEqual(older, newer)
    assert.equal(
      (await api.post('/api/auth/oidc/link-invitation', { token: older })).statusCode,
      400,
    )
    const callback = await comeBack(await start(newer), 'nina')
    assert.equal((await exchange(callback)).user.id, nina.id)
  })

  it("links the link's account, never the one whose e-mail the provider claims", async () => {
    const chosen = await api.account('escolhida')
    const other = await api.account('outra')
    // The identity claims the other account's e-mail (unverified).
    op.setAccount(unverified('otto', other.email))
    const token = await sendAndRead(chosen)
    const callback = await comeBack(await start(token), 'otto')
    assert.equal((await exchange(callback)).user.id, chosen.id)
    assert.equal((await linksOf(chosen.id)).length, 1)
    assert.deepEqual(await linksOf(other.id), [])
  })

  it('refuses an identity linked to another account, and the link stays usable', async () => {
    const first = await api.account('primeira')
    await exchange(await comeBack(await start(await sendAndRead(first)), 'pia'))
    const second = await api.account('segunda')
    const token = await sendAndRead(second)
    const refused = await comeBack(await start(token), 'pia')
    assert.equal(loginQuery(refused).get('sso_error'), 'linked_elsewhere')
    assert.deepEqual(await linksOf(second.id), [])
    assert.deepEqual((await detailsOf(second.id, 'sign_in_failed')).at(-1), {
      method: 'provider',
      provider: NAME,
      reason: 'linked_elsewhere',
    })
    // The person tries again with their own identity at the provider.
    const right = await comeBack(await start(token), 'rui')
    assert.equal((await exchange(right)).user.id, second.id)
  })

  it('refuses an account disabled meanwhile', async () => {
    const sol = await api.account('sol')
    const token = await sendAndRead(sol)
    const begun = await start(token)
    const disabled = await api.call('PATCH', `/api/staff/${sol.id}`, admin, { status: 'disabled' })
    assert.equal(disabled.statusCode, 200, disabled.body)
    const refused = await comeBack(begun, 'sol')
    assert.equal(loginQuery(refused).get('sso_error'), 'account_disabled')
    assert.deepEqual(await linksOf(sol.id), [])
    assert.equal((await api.post('/api/auth/oidc/link-invitation', { token })).statusCode, 400)
    // And a disabled account gets no link at all.
    const answer = await invite(sol.id)
    assert.equal(answer.statusCode, 409, answer.body)
    assert.equal(errorOf(answer).code, 'not_linkable')
  })

  it("still refused by the provider's ALLOWED_DOMAINS; a provider down is said so", async () => {
    const xavi = await api.account('xavi')
    // example.com is allowed, but only an e-mail the provider vouches for counts.
    op.setAccount(unverified('xavi', xavi.email))
    const token = await sendAndRead(
      xavi,
      STRICT,
      'Painel: vincule o provedor de identidade «Estrito» à sua conta',
    )
    const refused = await comeBack(await start(token), 'xavi')
    assert.equal(loginQuery(refused).get('sso_error'), 'domain_not_allowed')
    assert.deepEqual(await linksOf(xavi.id), [])

    const down = await sendAndRead(
      xavi,
      'down',
      'Painel: vincule o provedor de identidade «Fora» à sua conta',
    )
    const answer = await api.post('/api/auth/oidc/link-invitation/start', { token: down })
    assert.equal(answer.statusCode, 503, answer.body)
    assert.equal(errorOf(answer).code, 'provider_unreachable')
    assert.equal(
      (await api.post('/api/auth/oidc/link-invitation', { token: down })).statusCode,
      200,
    )
  })

  it('an anonymised account takes its link with it', async () => {
    const yara = await api.account('yara')
    const token = await sendAndRead(yara)
    const gone = await api.call('POST', `/api/staff/${yara.id}/anonymise`, admin)
    assert.equal(gone.statusCode, 204, gone.body)
    assert.equal((await api.post('/api/auth/oidc/link-invitation', { token })).statusCode, 400)
    const rows = await api.database.db
      .selectFrom('provider_link_invitations')
      .select('id')
      .where('account_id', '=', yara.id)
      .execute()
    assert.deepEqual(rows, [])
  })

  it('two callbacks of one link at once: one links, the other is refused', async () => {
    const tais = await api.account('tais')
    const token = await sendAndRead(tais)
    const [a, b] = [await start(token), await start(token)]
    const [backA, backB] = [await op.signIn(a.url, 'tais'), await op.signIn(b.url, 'ugo')]
    const answers = await Promise.all(
      [
        [backA, a.cookie],
        [backB, b.cookie],
      ].map(([back, cookie]) =>
        api.app.inject({
          method: 'GET',
          url: (back as URL).pathname + (back as URL).search,
          headers: { cookie: cookie as string },
        }),
      ),
    )
    const outcomes = answers.map((answer) => loginQuery(answer).get('sso_error') ?? 'signed-in')
    assert.deepEqual(outcomes.sort(), ['invitation_expired', 'signed-in'])
    assert.equal((await linksOf(tais.id)).length, 1)
  })

  it('refuses an unknown provider, one already linked, and bad input', async () => {
    const vera = await api.account('vera')
    const unknown = await invite(vera.id, admin, 'outro')
    assert.equal(unknown.statusCode, 404, unknown.body)
    assert.equal(errorOf(unknown).code, 'provider_not_found')
    assert.equal((await invite(vera.id, admin, 'Corp!')).statusCode, 400)
    assert.equal((await invite('nao-e-um-id')).statusCode, 400)
    assert.equal((await invite(crypto.randomUUID())).statusCode, 404)
    await exchange(await comeBack(await start(await sendAndRead(vera)), 'vera'))
    const again = await invite(vera.id)
    assert.equal(again.statusCode, 409, again.body)
    assert.equal(errorOf(again).code, 'provider_already_linked')
  })

  it('holds to permission, reach and rank', async () => {
    const ok = async <T>(method: 'POST' | 'PATCH', url: string, body: object): Promise<T> => {
      const answer = await api.call(method, url, admin, body)
      assert.ok(answer.statusCode < 300, `${method} ${url}: ${answer.statusCode} ${answer.body}`)
      return answer.json<T>()
    }
    const teamA = (await ok<TeamAnswer>('POST', '/api/teams', { name: 'Time do vínculo A' })).team
    const teamB = (await ok<TeamAnswer>('POST', '/api/teams', { name: 'Time do vínculo B' })).team
    const withRoles = (
      await ok<RoleAnswer>('POST', '/api/roles', {
        name: 'Gestor com papéis',
        description: '',
        permissions: ['staff.view', 'staff.roles'],
        scope: 'team',
      })
    ).role
    const without = (
      await ok<RoleAnswer>('POST', '/api/roles', {
        ...TEAM_MANAGER,
        permissions: [...TEAM_MANAGER.permissions],
        description: '',
      })
    ).role
    const member = async (label: string, teamId: string, roleId?: string) => {
      const made = await api.account(label)
      await ok('PATCH', `/api/staff/${made.id}`, { teamId, ...(roleId ? { roleId } : {}) })
      return made
    }
    const manager = await member('gestor-vinculo', teamA.id, withRoles.id)
    const managerToken = await api.signIn(manager.email, manager.password)
    const plain = await member('gestor-sem-papeis', teamA.id, without.id)
    const plainToken = await api.signIn(plain.email, plain.password)
    const mine = await member('do-time-a', teamA.id)
    const theirs = await member('do-time-b', teamB.id)
    const chief = await api.account('chefe-do-time-a', { role: 'admin' })
    await ok('PATCH', `/api/staff/${chief.id}`, { teamId: teamA.id })

    assert.equal((await invite(theirs.id, managerToken)).statusCode, 404)
    const outranked = await invite(chief.id, managerToken)
    assert.equal(outranked.statusCode, 403, outranked.body)
    assert.equal(errorOf(outranked).code, 'outranked')
    const forbidden = await invite(mine.id, plainToken)
    assert.equal(forbidden.statusCode, 403, forbidden.body)
    assert.equal(
      (
        await api.call('POST', `/api/staff/${mine.id}/provider-link-invitations`, undefined, {
          provider: NAME,
        })
      ).statusCode,
      401,
    )
    for (const id of [theirs.id, chief.id, mine.id]) {
      assert.deepEqual(await api.events(id, 'provider_link_invited'), [], id)
    }
    const allowed = await invite(mine.id, managerToken)
    assert.equal(allowed.statusCode, 202, allowed.body)
    const [event] = await api.events(mine.id, 'provider_link_invited')
    assert.equal(event?.actor_email, manager.email)
  })
})

describe(`an admin's link with PASSWORD_SIGN_IN=off (${testStoreName()})`, () => {
  let closed: On

  before(async () => {
    const fixture = await apiFixture({
      authProviders: [corp.settings(op.issuer, { buttonText: 'Entrar com Corp' })],
      authRateLimit: 10_000,
      passwordSignIn: false,
    })
    closed = { api: fixture, admin: await fixture.signIn(ADMIN.email, ADMIN.password) }
  })
  after(() => closed.api.close())

  it('an invited person with no password, unvouched for by the provider, gets in through the link', async () => {
    const email = 'zeca@example.com'
    const invited = await closed.api.call('POST', '/api/staff/invitations', closed.admin, {
      name: 'Zeca Sem Senha',
      email,
      role: 'staff',
    })
    assert.equal(invited.statusCode, 201, invited.body)
    const { id } = invited.json<{ user: { id: string } }>().user
    op.setAccount(unverified('zeca', email))
    // On its own the provider's unvouched e-mail cannot get Zeca in: nobody has a password.
    const plain = await closed.api.app.inject({
      method: 'GET',
      url: `/api/auth/oidc/${NAME}/start`,
    })
    const [plainCookie = ''] = ([] as string[]).concat(plain.headers['set-cookie'] ?? [])
    const refused = await comeBack(
      { url: String(plain.headers.location), cookie: plainCookie.split(';')[0] ?? '' },
      'zeca',
      closed,
    )
    assert.equal(loginQuery(refused).get('sso_error'), 'link_required')

    const token = await sendAndRead({ id, email }, NAME, SUBJECT, closed)
    const callback = await comeBack(await start(token, closed), 'zeca', closed)
    const { user } = await exchange(callback, closed)
    assert.equal(user.id, id)
    const page = await closed.api.get(`/api/staff/${id}`, closed.admin)
    const { user: shown, signIn } = page.json<StaffAccount>()
    assert.equal(shown.status, 'active', 'the invitation to Painel is taken up')
    assert.deepEqual(signIn.providers, ['Corp'])
    assert.equal(signIn.password, false)
  })
})
