import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { apiFixture, PUBLIC_URL, type ApiFixture } from '../../test/api-fixture'
import {
  registeredProvider,
  startOidcTestProvider,
  type ClaimsIn,
  type OidcTestProvider,
} from '../../test/oidc-test-provider'
import {
  comeBackFromProvider,
  createMappedRoleAndTeam,
  GROUPS_MAPPING,
  loginQuery,
  placedAccount,
} from '../../test/provider-sign-in'
import { testStoreName } from '../../test/test-database'

/**
 * The single sign-on journeys through the routes against the test provider in both of its modes
 * (server/test/oidc-test-provider.ts): as it ships, the person's claims only in UserInfo (OpenID
 * Connect Core §5.4; oidc-provider, Zitadel, Okta's org server), and with them in the ID token
 * (Google, Entra, gov.br). A new person waits for approval, an existing account is linked by its
 * verified e-mail, and the role and team come from a `groups` claim; a UserInfo that fails or
 * answers for someone else is a refusal with its reason in the audit log, never a 500.
 */

for (const claimsIn of ['userinfo', 'id-token'] satisfies ClaimsIn[]) {
  describe(`single sign-on with the claims in ${claimsIn} (${testStoreName()})`, () => {
    const pending = registeredProvider('corp', PUBLIC_URL)
    const mapped = registeredProvider('mapped', PUBLIC_URL)
    let op: OidcTestProvider
    let api: ApiFixture

    before(async () => {
      op = await startOidcTestProvider({
        clients: [pending.client, mapped.client],
        claimsIn,
        accounts: [
          { id: 'nova', email: 'nova@example.com', emailVerified: true, name: 'Nova Pessoa' },
          { id: 'velha', email: 'Velha@Example.com', emailVerified: true, name: 'Outro Nome' },
          {
            id: 'gestora',
            email: 'gestora@example.com',
            emailVerified: true,
            name: 'Gestora',
            claims: { groups: ['outros', 'painel-auditoria', 'time-vendas'] },
          },
          { id: 'falha', email: 'falha@example.com', emailVerified: true },
        ],
      })
      api = await apiFixture({
        authRateLimit: 10_000,
        authProviders: [pending.settings(op.issuer), mapped.settings(op.issuer, GROUPS_MAPPING)],
      })
      await createMappedRoleAndTeam(api)
    })
    after(async () => {
      await api.close()
      await op.stop()
    })

    const signInAt = async (name: string, login: string) =>
      loginQuery(await comeBackFromProvider(api, op, name, login))
    const accountOf = (email: string) => placedAccount(api, email)

    it('a new person: an account pending approval, with the name the provider gave', async () => {
      const query = await signInAt('corp', 'nova')
      assert.equal(query.get('sso_error'), 'pending_approval', query.toString())
      const account = await accountOf('nova@example.com')
      assert.deepEqual([account?.name, account?.status], ['Nova Pessoa', 'pending'])
    })

    it('an existing account with the verified e-mail: linked, and signed in', async () => {
      const id = await api.addAccount({ email: 'velha@example.com', password: 'senha-antiga-123' })
      const query = await signInAt('corp', 'velha')
      const code = query.get('sso')
      assert.ok(code, query.toString())
      const exchanged = await api.post('/api/auth/oidc/exchange', { code })
      assert.equal(exchanged.statusCode, 200, exchanged.body)
      const links = await api.database.db
        .selectFrom('provider_links')
        .select('provider')
        .where('account_id', '=', id)
        .execute()
      assert.deepEqual(links, [{ provider: 'corp' }])
    })

    it('the role and the team from the groups claim', async () => {
      const query = await signInAt('mapped', 'gestora')
      assert.ok(query.get('sso'), query.toString())
      const account = await accountOf('gestora@example.com')
      assert.deepEqual([account?.role, account?.team], ['Auditoria', 'Vendas'])
    })

    it('UserInfo down, or answering for someone else: refused with its reason, never a 500', async () => {
      for (const [fault, reason] of [
        ['error', 'userinfo_failed'],
        ['other-subject', 'userinfo_mismatch'],
      ] as const) {
        op.setUserInfoFault(fault)
        try {
          const query = await signInAt('corp', 'falha')
          assert.equal(query.get('sso_error'), reason, query.toString())
        } finally {
          op.setUserInfoFault(null)
        }
        const events = await api.database.db
          .selectFrom('audit_events')
          .select('details')
          .where('type', '=', 'sign_in_failed')
          .execute()
        assert.ok(
          events.some(
            (event) => (JSON.parse(event.details ?? '{}') as { reason?: string }).reason === reason,
          ),
          `an audited refusal for ${reason}`,
        )
      }
      assert.equal(await accountOf('falha@example.com'), undefined)
      assert.equal(await accountOf('someone-else@example.com'), undefined)
    })
  })
}
