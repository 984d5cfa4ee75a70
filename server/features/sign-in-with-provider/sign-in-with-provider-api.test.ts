import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { AuthProvider } from '../../config/auth-providers'
import { ADMIN, apiFixture, PUBLIC_URL, type ApiFixture } from '../../test/api-fixture'
import {
  registeredProvider,
  startOidcTestProvider,
  type OidcTestProvider,
  type TestAccount,
} from '../../test/oidc-test-provider'
import { sessionThroughProvider } from '../../test/provider-sign-in'
import { testStoreName } from '../../test/test-database'
import { PendingLoginSeal } from './pending-login'

/**
 * The routes of sign-in with a provider (sign-in-with-provider-routes.ts) through app.inject(),
 * against a real OpenID provider on loopback (server/test/oidc-test-provider.ts): the browser's
 * part (following redirects, keeping the pending cookie) is played by hand, as a browser would.
 */

const NAMES = ['corp', 'auto', 'strict', 'trusted', 'down'] as const
const registered = (name: (typeof NAMES)[number]) => registeredProvider(name, PUBLIC_URL)

const people: TestAccount[] = [
  { id: 'nova', email: 'nova@example.com', emailVerified: true, name: 'Nova Pessoa' },
  { id: 'auto1', email: 'auto1@example.com', emailVerified: true, name: 'Auto Um' },
  {
    id: 'chefe2',
    email: 'chefe2@example.com',
    emailVerified: true,
    name: 'Chefe Dois',
    claims: { groups: ['painel-admin', 'outros'] },
  },
  { id: 'ligada', email: 'ligada@example.com', emailVerified: true, name: 'Ligada' },
  { id: 'falsa', email: 'sem-prova@example.com', emailVerified: false, name: 'Falsa' },
  { id: 'carl', email: 'carl@evil.test', emailVerified: true, name: 'Carl' },
  { id: 'semmail', name: 'Sem Email' },
  { id: 'cercada', email: 'cercada@example.com', emailVerified: true, name: 'Cercada' },
  {
    id: 'mfa',
    email: 'mfa@example.com',
    emailVerified: true,
    name: 'Com MFA',
    amr: ['pwd', 'mfa'],
  },
]

let op: OidcTestProvider
let api: ApiFixture
let adminToken: string

function providers(issuer: string): AuthProvider[] {
  const base = (name: (typeof NAMES)[number], overrides: Partial<AuthProvider> = {}) =>
    registered(name).settings(issuer, overrides)
  return [
    base('corp'),
    base('auto', { autoApprove: true, adminClaim: 'groups', adminValues: ['painel-admin'] }),
    base('strict', { autoApprove: true, allowedDomains: ['example.com'] }),
    base('trusted', { autoApprove: true, trustMfa: true }),
    // Nothing listens on port 9 (discard): a provider that cannot be reached.
    base('down', { issuerUrl: 'http://127.0.0.1:9' }),
  ]
}

before(async () => {
  op = await startOidcTestProvider({
    clients: NAMES.map((name) => registered(name).client),
    accounts: people,
  })
  // Many sign-ins from one address in a minute: more than AUTH_RATE_LIMIT's default lets through.
  api = await apiFixture({ authProviders: providers(op.issuer), authRateLimit: 10_000 })
  adminToken = await api.signIn(ADMIN.email, ADMIN.password)
})
after(async () => {
  await api.close()
  await op.stop()
})

interface Started {
  location: URL
  cookie: { name: string; value: string; attributes: string }
}

async function start(name: string, redirect?: string): Promise<Started> {
  const query = redirect === undefined ? '' : `?redirect=${encodeURIComponent(redirect)}`
  const response = await api.app.inject({
    method: 'GET',
    url: `/api/auth/oidc/${name}/start${query}`,
  })
  assert.equal(response.statusCode, 302, response.body)
  const location = new URL(String(response.headers.location), PUBLIC_URL)
  const [setCookie = ''] = ([] as string[]).concat(response.headers['set-cookie'] ?? [])
  const [pair = '', ...attributes] = setCookie.split(';')
  const at = pair.indexOf('=')
  return {
    location,
    cookie: {
      name: pair.slice(0, at),
      value: pair.slice(at + 1),
      attributes: attributes.join(';'),
    },
  }
}

/** The callback as the browser makes it: the login page's query it lands on, and the response. */
async function callback(path: string, cookie?: { name: string; value: string }) {
  const response = await api.app.inject({
    method: 'GET',
    url: path,
    headers: cookie ? { cookie: `${cookie.name}=${cookie.value}` } : {},
  })
  assert.equal(response.statusCode, 302, response.body)
  const location = String(response.headers.location)
  assert.match(location, /^\/#\/login\?/)
  return { query: new URLSearchParams(location.slice(location.indexOf('?') + 1)), response }
}

/** Presses the button, signs in at the provider as `login`, comes back: the login page's query. */
async function signInAt(name: string, login: string, redirect?: string) {
  const started = await start(name, redirect)
  const back = await op.signIn(started.location, login)
  const path = back.pathname + back.search
  return { ...(await callback(path, started.cookie)), path, started }
}

const exchange = (code: string | null) => api.post('/api/auth/oidc/exchange', { code })

const accountByEmail = (email: string) =>
  api.database.db.selectFrom('accounts').selectAll().where('email', '=', email).executeTakeFirst()

const linksOf = (accountId: string) =>
  api.database.db
    .selectFrom('provider_links')
    .selectAll()
    .where('account_id', '=', accountId)
    .execute()

describe(`sign in with a provider: the routes (${testStoreName()})`, () => {
  it('a new person (AUTO_APPROVE): the provider, a hand-off code, the session, the audit', async () => {
    const { query, started } = await signInAt('auto', 'auto1', '/equipe?status=pending')
    assert.equal(started.location.origin, op.issuer)
    assert.equal(started.location.searchParams.get('code_challenge_method'), 'S256')
    assert.ok(started.location.searchParams.get('state'))
    assert.ok(started.location.searchParams.get('nonce'))
    assert.equal(
      started.location.searchParams.get('redirect_uri'),
      `${PUBLIC_URL}/api/auth/oidc/auto/callback`,
    )
    assert.match(started.cookie.attributes, /HttpOnly/i)
    assert.match(started.cookie.attributes, /SameSite=Lax/i)
    assert.match(started.cookie.attributes, /Path=\/api\/auth\/oidc\/auto\/callback/)

    assert.equal(query.get('sso_error'), null)
    assert.equal(query.get('redirect'), '/equipe?status=pending')
    const code = query.get('sso')
    assert.match(code ?? '', /^[A-Za-z0-9_-]{43}$/)
    const answer = await exchange(code)
    assert.equal(answer.statusCode, 200, answer.body)
    assert.equal(answer.headers['cache-control'], 'no-store')
    const { token, user } = answer.json<{ token: string; user: { email: string; role: string } }>()
    assert.equal(user.email, 'auto1@example.com')
    assert.equal(user.role, 'staff')
    const me = await api.get('/api/auth/me', token)
    assert.equal(me.statusCode, 200)

    const account = await accountByEmail('auto1@example.com')
    assert.ok(account)
    assert.equal(account.status, 'active')
    assert.equal(account.name, 'Auto Um')
    assert.equal(account.password_hash, '', 'no password of its own')
    const [link] = await linksOf(account.id)
    assert.equal(link?.provider, 'auto')
    assert.equal(link?.subject, 'auto1')
    assert.equal(link?.issuer, op.issuer)
    assert.equal((await api.events(account.id, 'registered'))[0]?.details, '{"via":"auto"}')
    assert.deepEqual(
      JSON.parse((await api.events(account.id, 'provider_linked'))[0]?.details ?? ''),
      { provider: 'auto', by: 'new_account', notice: true },
    )
    assert.deepEqual(JSON.parse((await api.events(account.id, 'sign_in'))[0]?.details ?? ''), {
      method: 'provider',
      provider: 'auto',
      provider_mfa: false,
    })
    // The code was taken: a second exchange (a replay) gets nothing.
    const again = await exchange(code)
    assert.equal(again.statusCode, 400)
    assert.equal(again.json<{ error: { code: string } }>().error.code, 'invalid_or_expired_code')
  })

  it('a password cannot sign in to an account a provider made (it has none)', async () => {
    const login = await api.post('/api/auth/login', { email: 'auto1@example.com', password: '' })
    assert.equal(login.statusCode, 400)
    const wrong = await api.post('/api/auth/login', {
      email: 'auto1@example.com',
      password: 'qualquer-coisa',
    })
    assert.equal(wrong.statusCode, 401)
  })

  it('the next sign-in finds the account by its link, and lands where the person was going', async () => {
    const { query } = await signInAt('auto', 'auto1')
    assert.equal(query.get('redirect'), null)
    assert.equal((await exchange(query.get('sso'))).statusCode, 200)
    const account = await accountByEmail('auto1@example.com')
    assert.ok(account)
    const links = await linksOf(account.id)
    assert.equal(links.length, 1)
    assert.ok(links[0]?.last_used_at, 'the link remembers its use')
  })

  it('a new person without AUTO_APPROVE waits for approval, like a registration', async () => {
    const { query } = await signInAt('corp', 'nova')
    assert.equal(query.get('sso'), null)
    assert.equal(query.get('sso_error'), 'pending_approval')
    const account = await accountByEmail('nova@example.com')
    assert.equal(account?.status, 'pending')
    assert.equal(account?.role, 'staff')
    // Equipe lists it among the registrations to approve.
    const pending = await api.get('/api/staff?status=pending', adminToken)
    assert.ok(
      pending
        .json<{ items: { email: string }[] }>()
        .items.some((i) => i.email === 'nova@example.com'),
    )
    // Still pending at the next try; approved, the person signs in.
    assert.equal((await signInAt('corp', 'nova')).query.get('sso_error'), 'pending_approval')
    const approve = await api.call('PATCH', `/api/staff/${account?.id}`, adminToken, {
      status: 'active',
    })
    assert.equal(approve.statusCode, 200, approve.body)
    const { query: after } = await signInAt('corp', 'nova')
    assert.equal((await exchange(after.get('sso'))).statusCode, 200)
  })

  it('an existing account is linked by an e-mail the provider vouches for', async () => {
    const id = await api.addAccount({ email: 'ligada@example.com', password: 'senha-da-ligada-1' })
    const { query } = await signInAt('corp', 'ligada')
    const answer = await exchange(query.get('sso'))
    assert.equal(answer.statusCode, 200, answer.body)
    assert.equal(answer.json<{ user: { id: string } }>().user.id, id)
    assert.equal((await linksOf(id)).length, 1)
    assert.deepEqual(JSON.parse((await api.events(id, 'provider_linked'))[0]?.details ?? ''), {
      provider: 'corp',
      by: 'verified_email',
      notice: true,
    })
    // The password still works too.
    await api.signIn('ligada@example.com', 'senha-da-ligada-1')
    // The owner is told how it was linked: at a sign-in through the provider, not in Minha conta.
    await api.deliverMail()
    const [notice] = api.mail.sentWith(
      'ligada@example.com',
      'Painel: provedor de identidade vinculado',
    )
    assert.match(notice?.text ?? '', /ao entrar pelo provedor, que confirmou que este endereço/)
    assert.doesNotMatch(notice?.text ?? '', /Minha conta\./)
  })

  it('an e-mail the provider does not vouch for links nothing and creates nothing', async () => {
    const id = await api.addAccount({
      email: 'sem-prova@example.com',
      password: 'senha-sem-prova-1',
    })
    const { query } = await signInAt('auto', 'falsa')
    assert.equal(query.get('sso_error'), 'link_required')
    assert.equal((await linksOf(id)).length, 0)
    const [failed] = await api.events(id, 'sign_in_failed')
    assert.deepEqual(JSON.parse(failed?.details ?? ''), {
      method: 'provider',
      provider: 'auto',
      reason: 'link_required',
    })
    // No e-mail at all: nobody to find or create.
    assert.equal((await signInAt('auto', 'semmail')).query.get('sso_error'), 'email_missing')
  })

  it('ADMIN_CLAIM: a person in the admins group is an admin', async () => {
    const { query } = await signInAt('auto', 'chefe2')
    const answer = await exchange(query.get('sso'))
    assert.equal(answer.statusCode, 200, answer.body)
    assert.equal(answer.json<{ user: { role: string } }>().user.role, 'admin')
  })

  it('ALLOWED_DOMAINS: another domain is refused, and no account is made', async () => {
    const { query } = await signInAt('strict', 'carl')
    assert.equal(query.get('sso_error'), 'domain_not_allowed')
    assert.equal(await accountByEmail('carl@evil.test'), undefined)
    const refused = await api.database.db
      .selectFrom('audit_events')
      .select('details')
      .where('type', '=', 'sign_in_failed')
      .where('details', 'like', '%domain_not_allowed%')
      .execute()
    assert.equal(refused.length, 1)
  })

  it('a disabled account is refused at the callback, and at the exchange if disabled since', async () => {
    const { query: first } = await signInAt('auto', 'ligada')
    const code = first.get('sso')
    const account = await accountByEmail('ligada@example.com')
    assert.ok(account && code)
    const disable = await api.call('PATCH', `/api/staff/${account.id}`, adminToken, {
      status: 'disabled',
    })
    assert.equal(disable.statusCode, 200, disable.body)
    const late = await exchange(code)
    assert.equal(late.statusCode, 403)
    assert.equal(late.json<{ error: { code: string } }>().error.code, 'account_disabled')
    assert.equal((await signInAt('corp', 'ligada')).query.get('sso_error'), 'account_disabled')
  })

  it('an account held by failed password guesses is held at the callback too', async () => {
    // The sign-in limits count the provider's return like a password (provider-callback.ts): an
    // account under a guessing attack waits there too, as it would at the password form.
    const id = await api.addAccount({ email: 'cercada@example.com', password: 'senha-cercada-1' })
    for (let start = 0; start < 100; start += 10) {
      const guesses = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          api.app.inject({
            method: 'POST',
            url: '/api/auth/login',
            payload: { email: 'cercada@example.com', password: `chute-${start + i}-xx` },
            remoteAddress: `10.77.0.${start + i}`,
          }),
        ),
      )
      for (const guess of guesses) assert.ok([401, 429].includes(guess.statusCode), guess.body)
    }
    const { query } = await signInAt('corp', 'cercada')
    assert.equal(query.get('sso_error'), 'too_many_attempts')
    assert.equal(query.get('sso'), null)
    assert.equal((await linksOf(id)).length, 0)
  })

  it('a wrong state, a missing cookie, another browser: link expired, nothing redeemed', async () => {
    const started = await start('corp')
    const back = await op.signIn(started.location, 'nova')
    const forged = new URL(back)
    forged.searchParams.set('state', 'x'.repeat(43))
    const wrongState = await callback(forged.pathname + forged.search, started.cookie)
    assert.equal(wrongState.query.get('sso_error'), 'link_expired')
    // The real pending cookie is left alone by a forged state (it names another cookie).
    const cleared = ([] as string[]).concat(wrongState.response.headers['set-cookie'] ?? [])
    assert.ok(!cleared.some((line) => line.startsWith(`${started.cookie.name}=`)), cleared.join())
    const noCookie = await callback(back.pathname + back.search)
    assert.equal(noCookie.query.get('sso_error'), 'link_expired')
    const withCookie = await callback(back.pathname + back.search, started.cookie)
    assert.equal(withCookie.query.get('sso_error'), null, 'the real one still works once')
    const clears = ([] as string[]).concat(withCookie.response.headers['set-cookie'] ?? [])
    assert.ok(
      clears.some((line) => line.startsWith(`${started.cookie.name}=;`)),
      clears.join(),
    )
  })

  it('a replayed callback (the same code and cookie again) is refused by the provider', async () => {
    const { path, started, query } = await signInAt('auto', 'auto1')
    assert.ok(query.get('sso'))
    const replay = await callback(path, started.cookie)
    assert.equal(replay.query.get('sso_error'), 'code_rejected')
  })

  it('a wrong nonce in the pending sign-in: the ID token is refused', async () => {
    const started = await start('auto')
    const back = await op.signIn(started.location, 'auto1')
    const state = back.searchParams.get('state') ?? ''
    const seal = new PendingLoginSeal(registered('auto').client.clientSecret, 'auto')
    const pending = seal.open(started.cookie.value, state, new Date())
    assert.ok(pending)
    const tampered = seal.seal({ ...pending, nonce: 'another-nonce-entirely' })
    const { query } = await callback(back.pathname + back.search, {
      name: started.cookie.name,
      value: tampered,
    })
    assert.equal(query.get('sso_error'), 'token_rejected')
  })

  it('cancelled at the provider: back to the login page with a reason', async () => {
    const started = await start('corp')
    const back = await op.cancel(started.location)
    const { query } = await callback(back.pathname + back.search, started.cookie)
    assert.equal(query.get('sso_error'), 'cancelled')
  })

  it('a provider that cannot be reached: the button says so, the server is fine', async () => {
    const response = await api.app.inject({ method: 'GET', url: '/api/auth/oidc/down/start' })
    assert.equal(response.statusCode, 302)
    assert.equal(response.headers.location, '/#/login?sso_error=provider_unreachable')
    assert.equal(response.headers['set-cookie'], undefined)
    assert.equal((await api.app.inject({ method: 'GET', url: '/readyz' })).statusCode, 200)
    // The other providers work meanwhile.
    assert.equal((await start('corp')).location.origin, op.issuer)
  })

  it('an unknown provider is a 404; a malformed name or body a 400', async () => {
    const unknown = await api.app.inject({ method: 'GET', url: '/api/auth/oidc/nenhum/start' })
    assert.equal(unknown.statusCode, 404)
    assert.equal(unknown.json<{ error: { code: string } }>().error.code, 'provider_not_found')
    const bad = await api.app.inject({ method: 'GET', url: '/api/auth/oidc/NO%20PE/start' })
    assert.equal(bad.statusCode, 400)
    for (const body of [{}, { code: '' }, { code: 42 }, { code: 'x'.repeat(65) }]) {
      assert.equal((await api.post('/api/auth/oidc/exchange', body)).statusCode, 400)
    }
    assert.equal((await exchange('A'.repeat(43))).statusCode, 400)
  })

  it('an unsafe redirect is dropped at the start', async () => {
    for (const redirect of [
      '//evil.test/',
      'https://evil.test/',
      '/\\evil.test',
      '/a#b',
      // Dot segments a parser normalises into `//evil.test`.
      '/..//evil.test',
      '/.%2e/%2e%2e//evil.test',
      '/%2E%2E//evil.test',
      '/./..//evil.test?x=1',
    ]) {
      const { query } = await signInAt('auto', 'auto1', redirect)
      assert.equal(query.get('redirect'), null, redirect)
      assert.ok(query.get('sso'))
    }
  })
})

/** A session through a provider: the token the exchange answers. */
async function sessionVia(name: string, login: string): Promise<string> {
  const { query } = await signInAt(name, login)
  const answer = await exchange(query.get('sso'))
  assert.equal(answer.statusCode, 200, answer.body)
  return answer.json<{ token: string }>().token
}

interface LinkItem {
  id: string
  provider: string
  label: string
  unlinkable: boolean
}
const myLinks = async (token: string) => {
  const response = await api.get('/api/me/providers', token)
  assert.equal(response.statusCode, 200, response.body)
  return response.json<{ providers: LinkItem[] }>().providers
}
const errorCode = (response: { json: <T>() => T }) =>
  response.json<{ error: { code: string } }>().error.code

describe(`Minha conta's providers and Equipe's sign-in methods (${testStoreName()})`, () => {
  it('a person with a password unlinks a provider; Equipe shows how each person signs in', async () => {
    const id = await api.addAccount({ email: 'dupla@example.com', password: 'senha-da-dupla-1' })
    op.setAccount({ id: 'dupla', email: 'dupla@example.com', emailVerified: true })
    const token = await sessionVia('corp', 'dupla')
    const [link, ...none] = await myLinks(token)
    assert.deepEqual(none, [])
    assert.equal(link?.provider, 'corp')
    assert.equal(link?.label, 'corp')
    assert.equal(link?.unlinkable, true)

    const page = await api.get(`/api/staff/${id}`, adminToken)
    assert.deepEqual(page.json<{ signIn: unknown }>().signIn, {
      password: true,
      passkeys: 0,
      providers: ['corp'],
      // The others an admin may mail a link for (link-invitation-api.test.ts).
      linkable: ['auto', 'strict', 'trusted', 'down'].map((name) => ({ name, label: name })),
    })

    const removed = await api.call('DELETE', `/api/me/providers/${link?.id.toUpperCase()}`, token)
    assert.equal(removed.statusCode, 204, removed.body)
    assert.deepEqual(await myLinks(token), [])
    assert.deepEqual(JSON.parse((await api.events(id, 'provider_unlinked'))[0]?.details ?? ''), {
      provider: 'corp',
      by: 'owner',
      notice: true,
    })
    const again = await api.call('DELETE', `/api/me/providers/${link?.id}`, token)
    assert.equal(again.statusCode, 404)
    assert.equal(errorCode(again), 'provider_link_not_found')
  })

  it('the last way in cannot be unlinked, not even by two unlinks at once', async () => {
    op.setAccount({ id: 'so-sso', email: 'so-sso@example.com', emailVerified: true })
    const token = await sessionVia('auto', 'so-sso')
    const [only] = await myLinks(token)
    assert.equal(only?.unlinkable, false)
    const refused = await api.call('DELETE', `/api/me/providers/${only?.id}`, token)
    assert.equal(refused.statusCode, 409)
    assert.equal(errorCode(refused), 'last_sign_in_method')

    // A second provider, then both unlinked at the same moment: one goes, one stays.
    await sessionVia('strict', 'so-sso')
    const both = await myLinks(token)
    assert.deepEqual(
      both.map((link) => [link.provider, link.unlinkable]),
      [
        ['auto', true],
        ['strict', true],
      ],
    )
    const answers = await Promise.all(
      both.map((link) => api.call('DELETE', `/api/me/providers/${link.id}`, token)),
    )
    assert.deepEqual(answers.map((answer) => answer.statusCode).sort(), [204, 409])
    assert.equal((await myLinks(token)).length, 1)

    const account = await accountByEmail('so-sso@example.com')
    const page = await api.get(`/api/staff/${account?.id}`, adminToken)
    assert.equal(page.json<{ signIn: { password: boolean } }>().signIn.password, false)
  })

  it('someone else’s link is not found, and the calls need a session', async () => {
    const [link] = await myLinks(await sessionVia('auto', 'auto1'))
    const other = await api.person('outra')
    const response = await api.call('DELETE', `/api/me/providers/${link?.id}`, other.token)
    assert.equal(response.statusCode, 404)
    assert.equal((await api.get('/api/me/providers')).statusCode, 401)
    assert.equal(
      (await api.call('DELETE', '/api/me/providers/nao-e-id', other.token)).statusCode,
      400,
    )
  })
})

describe(`sign in with a provider under MFA_REQUIRED=all (${testStoreName()})`, () => {
  let strict: ApiFixture
  before(async () => {
    strict = await apiFixture({ authProviders: providers(op.issuer), mfaRequired: 'all' })
  })
  after(() => strict.close())

  const via = async (name: string, login: string) =>
    strict.get('/api/auth/me', await sessionThroughProvider(strict, op, name, login))

  it('TRUST_MFA and a multi-factor sign-in at the provider: the second factor is done', async () => {
    const me = await via('trusted', 'mfa')
    assert.equal(
      me.json<{ user: { mfaSetupRequired?: boolean } }>().user.mfaSetupRequired,
      undefined,
    )
  })

  it('without TRUST_MFA (or without the provider’s multi-factor): set one up first', async () => {
    const me = await via('auto', 'mfa')
    assert.equal(me.json<{ user: { mfaSetupRequired?: boolean } }>().user.mfaSetupRequired, true)
    const single = await via('trusted', 'auto1')
    assert.equal(
      single.json<{ user: { mfaSetupRequired?: boolean } }>().user.mfaSetupRequired,
      true,
    )
  })
})

describe(`PASSWORD_SIGN_IN=off (${testStoreName()})`, () => {
  let closed: ApiFixture
  before(async () => {
    closed = await apiFixture({ authProviders: providers(op.issuer), passwordSignIn: false })
  })
  after(() => closed.close())

  it('only the first admin signs in with a password; anyone else is told the same as a wrong one', async () => {
    await closed.signIn(ADMIN.email, ADMIN.password)
    const someone = await closed.account('senha')
    const refused = await closed.post('/api/auth/login', {
      email: someone.email,
      password: someone.password,
    })
    assert.equal(refused.statusCode, 401)
    assert.equal(errorCode(refused), 'invalid_credentials')
    const wrong = await closed.post('/api/auth/login', {
      email: someone.email,
      password: 'errada-123',
    })
    assert.deepEqual(wrong.json(), refused.json())
  })

  it('registration is closed', async () => {
    const response = await closed.post('/api/auth/register', {
      name: 'Nova',
      email: 'nova-com-senha@example.com',
      password: 'uma-senha-boa-123',
    })
    assert.equal(response.statusCode, 403)
    assert.equal(errorCode(response), 'registration_closed')
  })
})
