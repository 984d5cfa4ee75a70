import assert from 'node:assert/strict'
import { after, before, describe, it, type TestContext } from 'node:test'
import * as client from 'openid-client'
import { apiFixture, PUBLIC_URL, type ApiFixture } from '../../test/api-fixture'
import {
  glewlwydClient,
  glewlwydMissing,
  glewlwydVersion,
  startGlewlwyd,
  type GlewlwydClaim,
  type GlewlwydProvider,
} from '../../test/glewlwyd-provider'
import type { RegisteredProvider } from '../../test/oidc-test-provider'
import {
  comeBackFromProvider,
  createMappedRoleAndTeam,
  GROUPS_MAPPING,
  loginQuery,
  placedAccount,
} from '../../test/provider-sign-in'
import { testStoreName } from '../../test/test-database'
import { PENDING_LINK_COOKIE } from './pending-links'

/**
 * The single sign-on journeys through the routes against glewlwyd, Debian's single sign-on
 * server (server/test/glewlwyd-provider.ts): an OpenID provider written apart from
 * oidc-provider, in the two ways an operator sets it up for Painel (docs/single-sign-on.md, "An
 * independent provider: glewlwyd").
 *
 * - E-mail and name released, nothing more: glewlwyd has no `email_verified` of its own, so
 *   Painel does not take its word for the address. A new person is refused rather than given an
 *   account on an address nobody vouched for; an existing account with that address is linked
 *   only by its password.
 * - With an `email_verified` claim the operator maps from a property they set on the people
 *   whose address they checked, and a `groups` claim: a new person waits for approval, an
 *   existing account is linked by its verified e-mail, the role and team come from `groups`.
 *
 * glewlwyd builds its ID token from the claims its UserInfo answers: each claim is in both (the
 * first test of each mode records it). Two things an operator must get right are shown refused:
 * a client id or secret with a `-`, and PKCE left off as on a new plugin.
 */

const missing = glewlwydMissing()
if (missing !== null && process.env.CI) {
  // CI must not pass by skipping the only provider that is not ours.
  it('glewlwyd is installed', () => {
    assert.fail(`glewlwyd is not installed: .ci/run installs it (${missing})`)
  })
}
const skip = missing === null ? false : `glewlwyd is not installed (${missing})`

/** glewlwyd's claim from a property an admin sets, `1` on the people whose e-mail they checked. */
const EMAIL_VERIFIED: GlewlwydClaim = {
  name: 'email_verified',
  'user-property': 'email-verified',
  type: 'boolean',
  'boolean-value-true': '1',
  'boolean-value-false': '0',
  mandatory: false,
  'on-demand': false,
  scope: ['email'],
}
const GROUPS: GlewlwydClaim = {
  name: 'groups',
  'user-property': 'groups',
  type: 'string',
  mandatory: false,
  'on-demand': false,
  scope: ['profile'],
}

/** In the test's log: how long glewlwyd took to start (docs/single-sign-on.md quotes it). */
function reportStart(t: TestContext, op: GlewlwydProvider) {
  const { provisioning, spawnToReady } = op.startMs
  t.diagnostic(
    `glewlwyd ${glewlwydVersion()} ready in ${provisioning + spawnToReady} ms ` +
      `(folder and database ${provisioning} ms, spawn to discovery ${spawnToReady} ms)`,
  )
}

/**
 * A sign-in at glewlwyd by openid-client as Painel makes it (code flow, PKCE, nonce,
 * client_secret_basic): the ID token's claims and UserInfo's, to see which claim is where.
 */
async function claimsAt(op: GlewlwydProvider, registered: RegisteredProvider, username: string) {
  const config = await client.discovery(
    new URL(op.issuer),
    registered.client.clientId,
    undefined,
    client.ClientSecretBasic(registered.client.clientSecret),
    { execute: [client.allowInsecureRequests] },
  )
  const verifier = client.randomPKCECodeVerifier()
  const state = client.randomState()
  const nonce = client.randomNonce()
  const back = await op.signIn(
    client.buildAuthorizationUrl(config, {
      redirect_uri: registered.client.redirectUris[0]!,
      scope: 'openid email profile',
      state,
      nonce,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    }),
    username,
  )
  const tokens = await client.authorizationCodeGrant(config, back, {
    pkceCodeVerifier: verifier,
    expectedState: state,
    expectedNonce: nonce,
    idTokenExpected: true,
  })
  const idToken = tokens.claims()!
  const userInfo = await client.fetchUserInfo(config, tokens.access_token, idToken.sub)
  const pick = (claims: Record<string, unknown>) =>
    Object.fromEntries(
      ['email', 'email_verified', 'name', 'groups']
        .filter((claim) => claim in claims)
        .map((claim) => [claim, claims[claim]]),
    )
  return { idToken: pick(idToken), userInfo: pick(userInfo) }
}

const linksOf = (api: ApiFixture, accountId: string) =>
  api.database.db
    .selectFrom('provider_links')
    .select(['provider', 'issuer'])
    .where('account_id', '=', accountId)
    .execute()

describe(
  `glewlwyd with the e-mail and name released, no email_verified (${testStoreName()})`,
  { skip },
  () => {
    const glew = glewlwydClient('glew', PUBLIC_URL)
    // The test provider's client ids (painel-<name>) have a "-": see glewlwydClient.
    const hyphenInId = glewlwydClient('hifenid', PUBLIC_URL, {
      clientId: 'painel-hifenid',
      clientSecret: 'segredohifenid',
    })
    const hyphenInSecret = glewlwydClient('hifensegredo', PUBLIC_URL, {
      clientId: 'painelhifensegredo',
      clientSecret: 'segredo-hifensegredo',
    })
    let op: GlewlwydProvider
    let api: ApiFixture

    before(async () => {
      op = await startGlewlwyd({
        clients: [glew.client, hyphenInId.client, hyphenInSecret.client],
        users: [
          {
            username: 'ana',
            password: 'senha-da-ana-1',
            name: 'Ana Lima',
            email: 'ana@example.com',
          },
          {
            username: 'nova',
            password: 'senha-da-nova-1',
            name: 'Nova',
            email: 'nova@example.com',
          },
          { username: 'bia', password: 'senha-da-bia-1', email: 'bia@example.com' },
        ],
      })
      api = await apiFixture({
        authRateLimit: 10_000,
        authProviders: [
          glew.settings(op.issuer),
          hyphenInId.settings(op.issuer),
          hyphenInSecret.settings(op.issuer),
        ],
      })
    })
    after(async () => {
      await api?.close()
      await op?.stop()
    })

    it('what it sends: e-mail and name, in the ID token and in UserInfo alike', async (t) => {
      reportStart(t, op)
      const sent = await claimsAt(op, glew, 'ana')
      const expected = { email: 'ana@example.com', name: 'Ana Lima' }
      assert.deepEqual(sent, { idToken: expected, userInfo: expected })
    })

    it('a new person: refused, no account on an e-mail nobody vouched for', async () => {
      const query = loginQuery(await comeBackFromProvider(api, op, 'glew', 'nova'))
      assert.equal(query.get('sso_error'), 'email_missing', query.toString())
      assert.equal(await placedAccount(api, 'nova@example.com'), undefined)
    })

    it('an existing account with that e-mail: linked only by its own password', async () => {
      const id = await api.addAccount({ email: 'ana@example.com', password: 'senha-no-painel-1' })
      const back = await comeBackFromProvider(api, op, 'glew', 'ana')
      assert.equal(loginQuery(back).get('sso_error'), 'link_required')
      assert.deepEqual(await linksOf(api, id), [])
      const [cookie = ''] = ([] as string[])
        .concat(back.headers['set-cookie'] ?? [])
        .filter((line) => line.startsWith(`${PENDING_LINK_COOKIE}=`))
        .map((line) => line.split(';')[0] ?? '')
      const linked = await api.post(
        '/api/auth/oidc/link',
        { email: 'ana@example.com', password: 'senha-no-painel-1' },
        { cookie },
      )
      assert.equal(linked.statusCode, 200, linked.body)
      assert.deepEqual(await linksOf(api, id), [{ provider: 'glew', issuer: op.issuer }])
      // From now on glewlwyd alone signs her in: the link finds the account.
      const again = loginQuery(await comeBackFromProvider(api, op, 'glew', 'ana'))
      const exchanged = await api.post('/api/auth/oidc/exchange', { code: again.get('sso') })
      assert.equal(exchanged.statusCode, 200, exchanged.body)
      assert.equal(exchanged.json<{ user: { id: string } }>().user.id, id)
    })

    it('a client id or secret with a "-": glewlwyd refuses the code exchange', async () => {
      for (const name of ['hifenid', 'hifensegredo']) {
        const query = loginQuery(await comeBackFromProvider(api, op, name, 'bia'))
        assert.equal(query.get('sso_error'), 'code_rejected', `${name}: ${query.toString()}`)
      }
    })
  },
)

describe(
  `glewlwyd with email_verified and groups configured (${testStoreName()})`,
  { skip },
  () => {
    const glew = glewlwydClient('glew', PUBLIC_URL)
    const mapped = glewlwydClient('mapeado', PUBLIC_URL)
    let op: GlewlwydProvider
    let api: ApiFixture
    const verified = { 'email-verified': '1' }

    before(async () => {
      op = await startGlewlwyd({
        clients: [glew.client, mapped.client],
        claims: [EMAIL_VERIFIED, GROUPS],
        users: [
          {
            username: 'nova',
            password: 'senha-da-nova-1',
            name: 'Nova Pessoa',
            email: 'nova@example.com',
            properties: verified,
          },
          {
            username: 'velha',
            password: 'senha-da-velha-1',
            name: 'Outro Nome',
            email: 'Velha@Example.com',
            properties: verified,
          },
          {
            username: 'gestora',
            password: 'senha-da-gestora-1',
            name: 'Gestora',
            email: 'gestora@example.com',
            properties: { ...verified, groups: ['outros', 'painel-auditoria', 'time-vendas'] },
          },
          {
            username: 'duvida',
            password: 'senha-da-duvida-1',
            email: 'duvida@example.com',
            properties: { 'email-verified': '0' },
          },
        ],
      })
      api = await apiFixture({
        authRateLimit: 10_000,
        authProviders: [glew.settings(op.issuer), mapped.settings(op.issuer, GROUPS_MAPPING)],
      })
      await createMappedRoleAndTeam(api)
    })
    after(async () => {
      await api?.close()
      await op?.stop()
    })

    const signInAt = async (name: string, username: string) =>
      loginQuery(await comeBackFromProvider(api, op, name, username))

    it('what it sends: email_verified and groups too, in the ID token and in UserInfo alike', async (t) => {
      reportStart(t, op)
      const sent = await claimsAt(op, glew, 'gestora')
      const expected = {
        email: 'gestora@example.com',
        email_verified: true,
        name: 'Gestora',
        groups: ['outros', 'painel-auditoria', 'time-vendas'],
      }
      assert.deepEqual(sent, { idToken: expected, userInfo: expected })
    })

    it('a new person: an account pending approval, with the name glewlwyd gave', async () => {
      const query = await signInAt('glew', 'nova')
      assert.equal(query.get('sso_error'), 'pending_approval', query.toString())
      const account = await placedAccount(api, 'nova@example.com')
      assert.deepEqual([account?.name, account?.status], ['Nova Pessoa', 'pending'])
    })

    it('an existing account with the verified e-mail: linked, and signed in', async () => {
      const id = await api.addAccount({ email: 'velha@example.com', password: 'senha-antiga-123' })
      const query = await signInAt('glew', 'velha')
      const exchanged = await api.post('/api/auth/oidc/exchange', { code: query.get('sso') })
      assert.equal(exchanged.statusCode, 200, exchanged.body)
      assert.equal(exchanged.json<{ user: { id: string } }>().user.id, id)
      assert.deepEqual(await linksOf(api, id), [{ provider: 'glew', issuer: op.issuer }])
    })

    it('the role and the team from the groups claim', async () => {
      const query = await signInAt('mapeado', 'gestora')
      assert.ok(query.get('sso'), query.toString())
      const account = await placedAccount(api, 'gestora@example.com')
      assert.deepEqual([account?.role, account?.team], ['Auditoria', 'Vendas'])
    })

    it('email_verified false: a new person is refused as without the claim', async () => {
      const query = await signInAt('glew', 'duvida')
      assert.equal(query.get('sso_error'), 'email_missing', query.toString())
      assert.equal(await placedAccount(api, 'duvida@example.com'), undefined)
    })
  },
)

describe(`glewlwyd with PKCE off, as on a new plugin (${testStoreName()})`, { skip }, () => {
  const glew = glewlwydClient('glew', PUBLIC_URL)
  let op: GlewlwydProvider
  let api: ApiFixture

  before(async () => {
    op = await startGlewlwyd({
      clients: [glew.client],
      users: [{ username: 'ana', password: 'senha-da-ana-1', email: 'ana@example.com' }],
      plugin: { 'pkce-allowed': false },
    })
    api = await apiFixture({ authRateLimit: 10_000, authProviders: [glew.settings(op.issuer)] })
  })
  after(async () => {
    await api?.close()
    await op?.stop()
  })

  it("refuses Painel's code challenge: back with an error, nobody signed in", async (t) => {
    reportStart(t, op)
    const query = loginQuery(await comeBackFromProvider(api, op, 'glew', 'ana'))
    assert.equal(query.get('sso_error'), 'provider_error', query.toString())
  })
})
