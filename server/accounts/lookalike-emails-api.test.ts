import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { canonicalEmail } from '../../common/account-rules'
import { ADMIN, apiFixture, errorOf, PUBLIC_URL, type ApiFixture } from '../test/api-fixture'
import { IMITATED, LOOK_ALIKES } from '../test/lookalike-emails'
import {
  registeredProvider,
  startOidcTestProvider,
  type OidcTestProvider,
} from '../test/oidc-test-provider'
import { comeBackFromProvider, loginQuery } from '../test/provider-sign-in'
import { testStoreName } from '../test/test-database'
import { PENDING_LINK_COOKIE } from '../features/sign-in-with-provider/pending-links'

/**
 * Every path that compares e-mail addresses, tried with each look-alike of an existing person's
 * address (server/test/lookalike-emails.ts): registration, an admin's invitation, password
 * sign-in, recovery, the person's and an admin's e-mail change, a provider that vouches for the
 * look-alike, and linking a provider by password. Each is refused or kept apart: nobody is
 * signed in, linked or mailed as the person the address imitates.
 */

const NAME = 'corp'
const registered = registeredProvider(NAME, PUBLIC_URL)
const PASSWORD = 'senha-da-pessoa-verdadeira-1'

let op: OidcTestProvider
let api: ApiFixture
let adminToken: string
/** The real people, by address: their ids. */
const real = new Map<string, string>()

before(async () => {
  op = await startOidcTestProvider({
    clients: [registered.client],
    accounts: [
      // The provider vouches for each look-alike, as a hostile or careless provider may.
      ...LOOK_ALIKES.map((entry, n) => ({
        id: `lookalike-${n}`,
        email: entry.address,
        emailVerified: true,
        name: 'Quem Imita',
      })),
      // And names each real address without vouching for it: the link-by-password path.
      ...IMITATED.map((email) => ({ id: `unverified-${email}`, email, emailVerified: false })),
    ],
  })
  api = await apiFixture({
    authProviders: [registered.settings(op.issuer, { autoApprove: true })],
    authRateLimit: 10_000,
  })
  adminToken = await api.signIn(ADMIN.email, ADMIN.password)
  for (const email of IMITATED) {
    real.set(email, await api.addAccount({ email, password: PASSWORD, name: 'Pessoa Real' }))
  }
})
after(async () => {
  await api.close()
  await op.stop()
})

const accountRows = () =>
  api.database.db
    .selectFrom('accounts')
    .select(['id', 'email', 'password_hash'])
    .orderBy('id')
    .execute()

describe(`e-mail addresses that look like another person's (${testStoreName()})`, () => {
  it('none of them has a canonical form', () => {
    for (const { what, address } of LOOK_ALIKES) assert.equal(canonicalEmail(address), null, what)
  })

  for (const { what, address, imitates } of LOOK_ALIKES) {
    it(`${what}: refused on every path, never reaching ${imitates}`, async () => {
      const target = real.get(imitates)!
      // Five look-alikes try kate's account: its failed tries are this test's, not the limit's.
      await api.database.db.deleteFrom('sign_in_limits').execute()
      const before = await accountRows()

      const registration = await api.post('/api/auth/register', {
        name: 'Quem Imita',
        email: address,
        password: 'uma-senha-bem-longa-1',
      })
      assert.equal(registration.statusCode, 400, `registration: ${registration.body}`)

      const invitation = await api.call('POST', '/api/staff/invitations', adminToken, {
        name: 'Quem Imita',
        email: address,
      })
      assert.equal(invitation.statusCode, 400, `invitation: ${invitation.body}`)
      assert.equal(errorOf(invitation).code, 'invalid_input')

      const signIn = await api.post('/api/auth/login', { email: address, password: PASSWORD })
      assert.equal(signIn.statusCode, 401, `sign-in: ${signIn.body}`)
      assert.equal(errorOf(signIn).code, 'invalid_credentials')

      const recovery = await api.post('/api/auth/password-recovery', { email: address })
      assert.equal(recovery.statusCode, 400, `recovery: ${recovery.body}`)

      const someone = await api.person('alguem')
      const ownChange = await api.call('POST', '/api/me/email', someone.token, {
        email: address,
        password: someone.password,
      })
      assert.equal(ownChange.statusCode, 400, `own e-mail change: ${ownChange.body}`)
      const adminChange = await api.call('POST', `/api/staff/${someone.id}/email`, adminToken, {
        email: address,
      })
      assert.equal(adminChange.statusCode, 400, `an admin's e-mail change: ${adminChange.body}`)

      // The provider vouches for the look-alike: no address, so no account is found or made.
      const n = LOOK_ALIKES.findIndex((entry) => entry.address === address)
      const vouched = loginQuery(await comeBackFromProvider(api, op, NAME, `lookalike-${n}`))
      assert.equal(vouched.get('sso_error'), 'email_missing', vouched.toString())

      // The provider names the real address unverified; the look-alike typed with the real
      // person's password does not link it.
      const pending = await comeBackFromProvider(api, op, NAME, `unverified-${imitates}`)
      assert.equal(loginQuery(pending).get('sso_error'), 'link_required')
      const cookie = ([] as string[])
        .concat(pending.headers['set-cookie'] ?? [])
        .find((line) => line.startsWith(`${PENDING_LINK_COOKIE}=`))
        ?.split(';')[0]
      assert.ok(cookie)
      const link = await api.post(
        '/api/auth/oidc/link',
        { email: address, password: PASSWORD },
        { cookie },
      )
      assert.equal(link.statusCode, 401, `link by password: ${link.body}`)

      // Nothing about the real person changed, and no account was added but the one made above.
      const links = await api.database.db
        .selectFrom('provider_links')
        .select('account_id')
        .where('account_id', '=', target)
        .execute()
      assert.deepEqual(links, [])
      const after = await accountRows()
      assert.deepEqual(
        after.filter((row) => row.id !== someone.id),
        before,
      )
      assert.ok(after.every((row) => canonicalEmail(row.email) === row.email))
    })
  }

  it('no mail went to any of the imitated addresses', async () => {
    await api.deliverMail()
    const toThem = api.mail.sent.filter((message) => IMITATED.includes(message.to))
    assert.deepEqual(
      toThem.map((message) => `${message.to}: ${message.subject}`),
      [],
    )
  })
})
