import assert from 'node:assert/strict'
import { after, before, describe, it, mock } from 'node:test'
import fc from 'fast-check'
import type { AuthProvider } from '../../config/auth-providers'
import {
  startOidcTestProvider,
  type OidcTestProvider,
  type TestAccount,
  testProviderSettings,
} from '../../test/oidc-test-provider'
import { shownSubject } from './cpf-mask'
import { PendingLoginSeal } from './pending-login'
import { ProviderConnection, type ProviderConnectionOptions } from './provider-connection'
import { ProviderSignIn, type FinishOutcome, type Refusal } from './provider-sign-in'

/**
 * The relying party against a real OpenID provider on loopback (server/test/oidc-test-provider.ts):
 * a sign-in that works, and each refusal issue 28 lists that does not need the HTTP routes.
 */

const REDIRECT_URI = 'http://localhost:8080/api/auth/oidc/corp/callback'
const PAINEL = { clientId: 'painel', clientSecret: 'painel-secret', redirectUris: [REDIRECT_URI] }
const OTHER = { clientId: 'other-app', clientSecret: 'other-secret', redirectUris: [REDIRECT_URI] }
const accounts: TestAccount[] = [
  {
    id: 'ana',
    email: 'ana@example.com',
    emailVerified: true,
    name: 'Ana Souza',
    amr: ['pwd', 'mfa'],
  },
  { id: 'bia', email: 'bia@example.com', emailVerified: false, name: 'Bia' },
  { id: 'carl', email: 'carl@evil.test', emailVerified: true, name: 'Carl' },
  {
    id: '12345678909',
    email: 'cidadao@example.com',
    emailVerified: true,
    name: 'Cidadão',
    amr: ['passwd'],
  },
]

function providerConfig(issuerUrl: string, overrides: Partial<AuthProvider> = {}): AuthProvider {
  return testProviderSettings({
    issuerUrl,
    clientId: PAINEL.clientId,
    clientSecret: PAINEL.clientSecret,
    ...overrides,
  })
}

function relyingParty(
  issuerUrl: string,
  overrides: Partial<AuthProvider> = {},
  options: Partial<ProviderConnectionOptions> = {},
): ProviderSignIn {
  return new ProviderSignIn(
    new ProviderConnection(providerConfig(issuerUrl, overrides), {
      redirectUri: REDIRECT_URI,
      retryAfterMs: 0,
      timeoutSeconds: 2,
      ...options,
    }),
  )
}

/** Presses the button, signs in at the provider: the callback's query and the pending cookie. */
async function atProvider(
  rp: ProviderSignIn,
  op: OidcTestProvider,
  login: string,
  redirect: string | null = null,
) {
  const started = await rp.start(redirect)
  assert.equal(started.outcome, 'redirect')
  assert.ok(started.outcome === 'redirect')
  const back = await op.signIn(started.url, login)
  assert.equal(`${back.origin}${back.pathname}`, REDIRECT_URI)
  return { query: back.search.slice(1), cookie: started.cookie, url: started.url }
}

function assertRefused(outcome: FinishOutcome, refusal: Refusal, detail?: RegExp) {
  assert.equal(outcome.outcome, 'refused', JSON.stringify(outcome))
  assert.ok(outcome.outcome === 'refused')
  assert.equal(outcome.refusal, refusal, outcome.detail)
  if (detail) assert.match(outcome.detail, detail)
}

describe('sign in with a provider, against a real OpenID provider', () => {
  let op: OidcTestProvider
  let otherIssuer: OidcTestProvider
  before(async () => {
    op = await startOidcTestProvider({ clients: [PAINEL, OTHER], accounts })
    otherIssuer = await startOidcTestProvider({ clients: [PAINEL], accounts })
  })
  after(async () => {
    await op.stop()
    await otherIssuer.stop()
  })

  it('a sign-in: who it was, the multi-factor, and where the person was going', async () => {
    const rp = relyingParty(op.issuer)
    const { query, cookie, url } = await atProvider(rp, op, 'ana@example.com', '/equipe')
    assert.equal(url.searchParams.get('code_challenge_method'), 'S256')
    assert.equal(url.searchParams.get('response_type'), 'code')
    assert.ok(url.searchParams.get('nonce') && url.searchParams.get('state'))
    assert.ok(!url.href.includes(cookie.value), 'the sealed verifier stays out of the URL')
    assert.equal(rp.pendingCookieName(query), cookie.name)
    const outcome = await rp.finish(query, cookie.value)
    assert.equal(outcome.outcome, 'identified', JSON.stringify(outcome))
    assert.ok(outcome.outcome === 'identified')
    assert.equal(outcome.redirectTarget, '/equipe')
    assert.deepEqual(outcome.identity, {
      provider: 'corp',
      issuer: op.issuer,
      subject: 'ana',
      email: 'ana@example.com',
      emailVerified: true,
      name: 'Ana Souza',
      amr: ['pwd', 'mfa'],
      acr: null,
      multiFactor: true,
      adminValues: [],
      roleName: null,
      teamName: null,
    })
  })

  it("wrong state: a callback with another sign-in's state, or none of this browser", async () => {
    const rp = relyingParty(op.issuer)
    const first = await atProvider(rp, op, 'ana')
    const second = await atProvider(rp, op, 'ana')
    assertRefused(await rp.finish(first.query, second.cookie.value), 'link_expired')
    assertRefused(await rp.finish(first.query, undefined), 'link_expired')
    const forged = new URLSearchParams(first.query)
    forged.set('state', 'x'.repeat(43))
    assertRefused(await rp.finish(forged.toString(), first.cookie.value), 'link_expired')
    // The right pair still works: nothing above used the code up.
    assert.equal((await rp.finish(first.query, first.cookie.value)).outcome, 'identified')
  })

  it('wrong nonce: an ID token minted for another nonce is refused by its validation', async () => {
    const rp = relyingParty(op.issuer)
    const { query, cookie } = await atProvider(rp, op, 'ana')
    const seal = new PendingLoginSeal(PAINEL.clientSecret, 'corp')
    const state = new URLSearchParams(query).get('state') ?? ''
    const pending = seal.open(cookie.value, state, new Date())
    assert.ok(pending)
    const tampered = seal.seal({ ...pending, nonce: 'n'.repeat(43) })
    assertRefused(await rp.finish(query, tampered), 'token_rejected', /nonce/)
  })

  it('a replayed code: the second use is refused by the provider', async () => {
    const rp = relyingParty(op.issuer)
    const { query, cookie } = await atProvider(rp, op, 'ana')
    assert.equal((await rp.finish(query, cookie.value)).outcome, 'identified')
    assertRefused(await rp.finish(query, cookie.value), 'code_rejected', /invalid_grant/)
  })

  it("a code from another client: Painel's credentials cannot redeem it", async () => {
    const other = relyingParty(op.issuer, {
      clientId: OTHER.clientId,
      clientSecret: OTHER.clientSecret,
    })
    const stolen = await atProvider(other, op, 'ana')
    const state = new URLSearchParams(stolen.query).get('state') ?? ''
    const pending = new PendingLoginSeal(OTHER.clientSecret, 'corp').open(
      stolen.cookie.value,
      state,
      new Date(),
    )
    assert.ok(pending)
    // Painel's own pending sign-in for that state and verifier: only the client differs.
    const cookie = new PendingLoginSeal(PAINEL.clientSecret, 'corp').seal(pending)
    assertRefused(
      await relyingParty(op.issuer).finish(stolen.query, cookie),
      'code_rejected',
      /invalid_grant/,
    )
  })

  it('a code from another issuer: refused by the iss parameter (RFC 9207)', async () => {
    const elsewhere = relyingParty(otherIssuer.issuer)
    const { query, cookie } = await atProvider(elsewhere, otherIssuer, 'ana')
    assertRefused(
      await relyingParty(op.issuer).finish(query, cookie.value),
      'token_rejected',
      /iss/,
    )
  })

  it("an ID token from another issuer: refused by the token's iss", async () => {
    // A token endpoint that answers with another issuer's tokens (what a compromised or
    // misrouted endpoint would do); the callback's iss says the right issuer.
    const otherTokenEndpoint = new URL('/token', otherIssuer.issuer).href
    const misrouted = relyingParty(
      op.issuer,
      {},
      {
        fetch: (url, init) => fetch(url.endsWith('/token') ? otherTokenEndpoint : url, init),
      },
    )
    const { query, cookie } = await atProvider(relyingParty(otherIssuer.issuer), otherIssuer, 'ana')
    const params = new URLSearchParams(query)
    params.set('iss', op.issuer)
    assertRefused(
      await misrouted.finish(params.toString(), cookie.value),
      'token_rejected',
      /"iss"/,
    )
  })

  it("an ID token for another audience: refused by the token's aud", async () => {
    // The token endpoint is asked with the other client's credentials: its ID token names it.
    const basic = `Basic ${Buffer.from(`${OTHER.clientId}:${OTHER.clientSecret}`).toString('base64')}`
    const asOther = relyingParty(
      op.issuer,
      {},
      {
        fetch: (url, init) => {
          if (!url.endsWith('/token')) return fetch(url, init)
          const headers = new Headers(init.headers)
          headers.set('authorization', basic)
          return fetch(url, { ...init, headers })
        },
      },
    )
    const other = relyingParty(op.issuer, {
      clientId: OTHER.clientId,
      clientSecret: OTHER.clientSecret,
    })
    const { query, cookie } = await atProvider(other, op, 'ana')
    const state = new URLSearchParams(query).get('state') ?? ''
    const pending = new PendingLoginSeal(OTHER.clientSecret, 'corp').open(
      cookie.value,
      state,
      new Date(),
    )
    assert.ok(pending)
    const painelCookie = new PendingLoginSeal(PAINEL.clientSecret, 'corp').seal(pending)
    assertRefused(await asOther.finish(query, painelCookie), 'token_rejected', /"aud"/)
  })

  it('an expired ID token: past exp by more than the clock tolerance', async () => {
    const shortLived = await startOidcTestProvider({
      clients: [PAINEL],
      accounts,
      idTokenTtlSeconds: 60,
    })
    after(() => shortLived.stop())
    // Painel's clock runs 2 minutes ahead: the 60-second token is stale past the 30 s leeway.
    const late = relyingParty(shortLived.issuer, {}, { now: () => new Date(Date.now() + 120_000) })
    const { query, cookie } = await atProvider(late, shortLived, 'ana')
    assertRefused(await late.finish(query, cookie.value), 'token_rejected', /exp|timestamp/i)
    // Within the leeway it is fine.
    const close = relyingParty(shortLived.issuer, {}, { now: () => new Date(Date.now() + 80_000) })
    const fresh = await atProvider(close, shortLived, 'ana')
    assert.equal((await close.finish(fresh.query, fresh.cookie.value)).outcome, 'identified')
  })

  it('an unknown signing key is refused; after the rotation settles, the new keys are fetched', async () => {
    const rotating = await startOidcTestProvider({ clients: [PAINEL], accounts })
    after(() => rotating.stop())
    const rp = relyingParty(rotating.issuer)
    const first = await atProvider(rp, rotating, 'ana')
    assert.equal((await rp.finish(first.query, first.cookie.value)).outcome, 'identified')
    const oldKeys = rotating.publishedKeyIds()
    rotating.rotateKeys()
    assert.notDeepEqual(rotating.publishedKeyIds(), oldKeys)
    // Keys fetched under a minute ago: a token signed with a kid not in them is refused, not a
    // reason to hit the provider again (openid-client's rule; a forged kid cannot make us poll).
    const second = await atProvider(rp, rotating, 'ana')
    assertRefused(await rp.finish(second.query, second.cookie.value), 'token_rejected', /key/)
    // A minute later, an unknown kid re-fetches the provider's keys and the sign-in works.
    mock.timers.enable({ apis: ['Date'], now: Date.now() + 61_000 })
    try {
      const third = await atProvider(rp, rotating, 'ana')
      assert.equal((await rp.finish(third.query, third.cookie.value)).outcome, 'identified')
    } finally {
      mock.timers.reset()
    }
  })

  it('a provider down at start does not throw; each use retries, and it works once back', async () => {
    const flaky = await startOidcTestProvider({ clients: [PAINEL], accounts })
    after(() => flaky.stop())
    await flaky.stop()
    const messages: string[] = []
    const log = { warn: (m: string) => messages.push(m), info: () => {} }
    const connection = new ProviderConnection(providerConfig(flaky.issuer), {
      redirectUri: REDIRECT_URI,
      retryAfterMs: 0,
      log,
    })
    const rp = new ProviderSignIn(connection)
    assert.equal(await connection.warmUp(), false)
    assert.match(messages[0] ?? '', /^provider corp: discovery failed/)
    const started = await rp.start(null)
    assert.equal(started.outcome, 'provider_unreachable')
    await flaky.start()
    const { query, cookie } = await atProvider(rp, flaky, 'ana')
    // Down between the button and the callback: the code cannot be redeemed now.
    await flaky.stop()
    assertRefused(await rp.finish(query, cookie.value), 'provider_unreachable')
    await flaky.start()
  })

  it('after a failed discovery, uses within retryAfterMs answer at once without waiting', async () => {
    const down = await startOidcTestProvider({ clients: [PAINEL], accounts })
    await down.stop()
    const connection = new ProviderConnection(providerConfig(down.issuer), {
      redirectUri: REDIRECT_URI,
      retryAfterMs: 60_000,
    })
    assert.equal(await connection.warmUp(), false)
    await down.start()
    after(() => down.stop())
    assert.equal((await new ProviderSignIn(connection).start(null)).outcome, 'provider_unreachable')
  })

  it('error=access_denied: the person cancelled at the provider', async () => {
    const rp = relyingParty(op.issuer)
    const started = await rp.start(null)
    assert.ok(started.outcome === 'redirect')
    const back = await op.cancel(started.url)
    assert.equal(back.searchParams.get('error'), 'access_denied')
    assertRefused(await rp.finish(back.search.slice(1), started.cookie.value), 'cancelled')
    // Without this browser's pending sign-in, it is just an expired link.
    assertRefused(await rp.finish(back.search.slice(1), undefined), 'link_expired')
  })

  it('ALLOWED_DOMAINS: another domain, or an unverified e-mail of the right one, is refused', async () => {
    const rp = relyingParty(op.issuer, { allowedDomains: ['example.com'] })
    const carl = await atProvider(rp, op, 'carl')
    assertRefused(
      await rp.finish(carl.query, carl.cookie.value),
      'domain_not_allowed',
      /evil\.test/,
    )
    const bia = await atProvider(rp, op, 'bia')
    assertRefused(await rp.finish(bia.query, bia.cookie.value), 'domain_not_allowed', /unverified/)
    const ana = await atProvider(rp, op, 'ana')
    assert.equal((await rp.finish(ana.query, ana.cookie.value)).outcome, 'identified')
  })

  it('gov.br preset: its scopes, PKCE, the CPF as subject, shown masked', async () => {
    const rp = relyingParty(op.issuer, {
      preset: 'govbr',
      scopes: ['openid', 'email', 'profile', 'govbr_confiabilidades'],
    })
    const { query, cookie, url } = await atProvider(rp, op, '12345678909')
    assert.equal(url.searchParams.get('scope'), 'openid email profile govbr_confiabilidades')
    const outcome = await rp.finish(query, cookie.value)
    assert.ok(outcome.outcome === 'identified', JSON.stringify(outcome))
    assert.equal(outcome.identity.subject, '12345678909')
    assert.equal(shownSubject(outcome.identity.subject, true), '***.456.789-**')
    assert.equal(outcome.identity.multiFactor, false, "gov.br's passwd is one factor")
  })

  it('hostile callback queries and cookies: always a refusal, never a throw', async () => {
    const rp = relyingParty(op.issuer)
    const { query, cookie } = await atProvider(rp, op, 'ana')
    const state = new URLSearchParams(query).get('state') ?? ''
    const refusals: Refusal[] = ['invalid_callback', 'link_expired', 'cancelled', 'provider_error']
    const value = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 200 }),
      fc.constantFrom(state, 'access_denied', op.issuer, 'x'.repeat(3000)),
    )
    const key = fc.constantFrom(
      'code',
      'state',
      'iss',
      'error',
      'error_description',
      '__proto__',
      'x',
    )
    const hostileQuery = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 500 }),
      fc
        .array(fc.tuple(key, value), { maxLength: 6 })
        .map((pairs) => new URLSearchParams(pairs).toString()),
    )
    const hostileCookie = fc.option(
      fc.oneof(
        fc.string({ maxLength: 300 }),
        fc.base64String({ maxLength: 400 }),
        fc.constant(cookie.value.slice(0, -2)),
      ),
      { nil: undefined },
    )
    await fc.assert(
      fc.asyncProperty(hostileQuery, hostileCookie, async (raw, sealed) => {
        const outcome = await rp.finish(raw, sealed)
        assert.equal(outcome.outcome, 'refused')
        assert.ok(
          outcome.outcome === 'refused' && refusals.includes(outcome.refusal),
          JSON.stringify(outcome),
        )
      }),
      { numRuns: 300 },
    )
    // The real pair was never spent by any of that.
    const real = await rp.finish(query, cookie.value)
    assert.equal(real.outcome, 'identified', JSON.stringify(real))
  })
})

/** The ID token's payload, as the token endpoint answered it (no check: the tests read it). */
const payloadOf = (idToken: string) =>
  JSON.parse(Buffer.from(idToken.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<
    string,
    unknown
  >

/**
 * A fetch that keeps what the provider answered at its token and UserInfo endpoints, to show
 * where each claim really came from.
 */
function recordingFetch() {
  const seen: { idToken?: Record<string, unknown>; userInfoType?: string | null } = {}
  const record: typeof fetch = async (input, init) => {
    const response = await fetch(input, init)
    const url = String(input instanceof Request ? input.url : input)
    if (url.endsWith('/token')) {
      const body = (await response.clone().json()) as { id_token?: string }
      if (body.id_token) seen.idToken = payloadOf(body.id_token)
    }
    if (url.endsWith('/me')) seen.userInfoType = response.headers.get('content-type')
    return response
  }
  return { seen, fetch: record }
}

describe('where the claims come from: UserInfo (the provider as it ships) and the ID token', () => {
  const person: TestAccount = {
    id: 'dora',
    email: 'Dora@Example.com',
    emailVerified: true,
    name: 'Dora Lima',
    claims: { groups: ['painel-admin', 'time-vendas'] },
  }
  const mapping: Partial<AuthProvider> = {
    adminClaim: 'groups',
    adminValues: ['painel-admin'],
    teamClaim: 'groups',
    teamMap: [{ value: 'time-vendas', name: 'Vendas' }],
  }
  const SIGNED = { ...PAINEL, clientId: 'painel-signed', signedUserInfo: true }
  let asShipped: OidcTestProvider
  let idTokenMode: OidcTestProvider
  before(async () => {
    asShipped = await startOidcTestProvider({ clients: [PAINEL, SIGNED], accounts: [person] })
    idTokenMode = await startOidcTestProvider({
      clients: [PAINEL],
      accounts: [person],
      claimsIn: 'id-token',
    })
  })
  after(async () => {
    await asShipped.stop()
    await idTokenMode.stop()
  })

  const expectDora = (outcome: FinishOutcome) => {
    assert.equal(outcome.outcome, 'identified', JSON.stringify(outcome))
    assert.ok(outcome.outcome === 'identified')
    const { identity } = outcome
    assert.deepEqual(
      [identity.subject, identity.email, identity.emailVerified, identity.name],
      ['dora', 'dora@example.com', true, 'Dora Lima'],
    )
    assert.deepEqual([identity.adminValues, identity.teamName], [['painel-admin'], 'Vendas'])
  }

  it("as shipped: a thin ID token, and the person's claims read from UserInfo", async () => {
    const recorded = recordingFetch()
    const rp = relyingParty(asShipped.issuer, mapping, { fetch: recorded.fetch })
    const { query, cookie } = await atProvider(rp, asShipped, 'dora')
    expectDora(await rp.finish(query, cookie.value))
    assert.equal(recorded.seen.idToken?.sub, 'dora')
    for (const claim of ['email', 'email_verified', 'name', 'groups']) {
      assert.ok(!(claim in (recorded.seen.idToken ?? {})), `${claim} is not in the ID token`)
    }
  })

  it('ID-token mode (Google, Entra, gov.br): the same person from the token', async () => {
    const recorded = recordingFetch()
    const rp = relyingParty(idTokenMode.issuer, mapping, { fetch: recorded.fetch })
    const { query, cookie } = await atProvider(rp, idTokenMode, 'dora')
    expectDora(await rp.finish(query, cookie.value))
    assert.equal(recorded.seen.idToken?.email, 'Dora@Example.com')
  })

  it('a signed UserInfo (a JWT) is checked against the published keys and read', async () => {
    const recorded = recordingFetch()
    const rp = relyingParty(
      asShipped.issuer,
      { ...mapping, clientId: SIGNED.clientId },
      { fetch: recorded.fetch },
    )
    const { query, cookie } = await atProvider(rp, asShipped, 'dora')
    expectDora(await rp.finish(query, cookie.value))
    assert.match(String(recorded.seen.userInfoType), /^application\/jwt/)
  })

  it('a UserInfo that fails, or answers for another subject, is a refusal of its own', async () => {
    for (const [fault, refusal] of [
      ['error', 'userinfo_failed'],
      ['other-subject', 'userinfo_mismatch'],
    ] as const) {
      const rp = relyingParty(asShipped.issuer, mapping)
      const { query, cookie } = await atProvider(rp, asShipped, 'dora')
      asShipped.setUserInfoFault(fault)
      try {
        assertRefused(await rp.finish(query, cookie.value), refusal)
      } finally {
        asShipped.setUserInfoFault(null)
      }
    }
  })
})
