import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { MfaRequired } from '../../../common/api/auth'
import type { RecoveryCodes, TotpSetup } from '../../../common/api/me'
import { totpCode } from '../../accounts/totp'
import { ADMIN, apiFixture, errorOf, PUBLIC_URL, type ApiFixture } from '../../test/api-fixture'
import {
  registeredProvider,
  startOidcTestProvider,
  type OidcTestProvider,
} from '../../test/oidc-test-provider'
import { comeBackFromProvider as signInAtProvider } from '../../test/provider-sign-in'
import { testStoreName } from '../../test/test-database'
import type { MyActivity } from '../../../common/api/dashboard'
import { PENDING_LINK_COOKIE } from './pending-links'

/**
 * Linking a provider by the account's password (link-by-password.ts) through app.inject(),
 * against the real test provider on loopback: its people below claim e-mails it does not vouch
 * for, so each callback ends in `link_required` and a pending link in the browser's cookie.
 */

const NAME = 'corp'
const registered = registeredProvider(NAME, PUBLIC_URL)
/** One unverified identity per test: once linked, a subject is found by its link. */
const unverified = (id: string) => ({ id, email: `${id}@example.com`, emailVerified: false })
const PEOPLE = ['ana', 'bia', 'caio', 'duda', 'eva', 'fabi', 'gil', 'hugo', 'iris', 'jade', 'kai']

let op: OidcTestProvider
let api: ApiFixture
const corp = () => registered.settings(op.issuer, { buttonText: 'Entrar com Corp' })

before(async () => {
  op = await startOidcTestProvider({
    clients: [registered.client],
    accounts: PEOPLE.map(unverified),
  })
  api = await apiFixture({
    authProviders: [corp()],
    authRateLimit: 10_000,
  })
})
after(async () => {
  await api.close()
  await op.stop()
})

/** The Set-Cookie line whose name starts with `prefix`, split at its attributes. */
const cookiePair = (setCookie: string | string[] | undefined, prefix: string) =>
  ([] as string[])
    .concat(setCookie ?? [])
    .find((line) => line.startsWith(prefix))
    ?.split(';')

/** The button, the provider's page as `login`, the callback: the pending link's cookie. */
async function comeBackFromProvider(
  login: string,
  fixture = api,
): Promise<{ cookie: string; attributes: string; location: string }> {
  const returned = await signInAtProvider(fixture, op, NAME, login)
  const [pair = '', ...attributes] =
    cookiePair(returned.headers['set-cookie'], `${PENDING_LINK_COOKIE}=`) ?? []
  return {
    cookie: pair,
    attributes: attributes.join(';'),
    location: String(returned.headers.location),
  }
}

const link = (cookie: string | undefined, email: string, password: string, fixture = api) =>
  fixture.post('/api/auth/oidc/link', { email, password }, cookie ? { cookie } : {})

const linkCode = (cookie: string, challenge: string, code: string) =>
  api.post('/api/auth/oidc/link/mfa', { challenge, code }, { cookie })

const linksOf = (accountId: string) =>
  api.database.db
    .selectFrom('provider_links')
    .selectAll()
    .where('account_id', '=', accountId)
    .execute()

const details = async (accountId: string, type: string) =>
  (await api.events(accountId, type)).map(
    (event) => JSON.parse(event.details ?? '{}') as Record<string, unknown>,
  )

describe(`linking a provider by password (${testStoreName()})`, () => {
  it('a wrong password links nothing; the right one links, audits and signs in', async () => {
    const ana = await api.account('ana-conta')
    await api.database.db
      .updateTable('accounts')
      .set({ email: 'ana@example.com' })
      .where('id', '=', ana.id)
      .execute()
    const back = await comeBackFromProvider('ana')
    assert.equal(back.location, '/#/login?sso_error=link_required')
    assert.match(back.cookie, new RegExp(`^${PENDING_LINK_COOKIE}=[A-Za-z0-9_-]{43}$`))
    assert.match(back.attributes, /HttpOnly/i)
    assert.match(back.attributes, /SameSite=Strict/i)
    assert.match(back.attributes, /Path=\/api\/auth\/oidc\/link/)

    const wrong = await link(back.cookie, 'ana@example.com', 'nao-e-a-senha-1')
    assert.equal(wrong.statusCode, 401)
    assert.equal(errorOf(wrong).code, 'invalid_credentials')
    assert.equal((await linksOf(ana.id)).length, 0)
    assert.deepEqual((await details(ana.id, 'sign_in_failed')).at(-1), {
      method: 'password',
      during: 'provider_link',
      provider: NAME,
    })

    const right = await link(back.cookie, 'ANA@example.com', ana.password)
    assert.equal(right.statusCode, 200, right.body)
    const { token, user } = right.json<{ token: string; user: { id: string } }>()
    assert.equal(user.id, ana.id)
    assert.equal((await api.get('/api/auth/me', token)).statusCode, 200)
    assert.match(String(right.headers['set-cookie']), new RegExp(`${PENDING_LINK_COOKIE}=;`))
    const [made] = await linksOf(ana.id)
    assert.equal(made?.provider, NAME)
    assert.equal(made?.subject, 'ana')
    assert.equal(made?.issuer, op.issuer)
    assert.deepEqual(await details(ana.id, 'provider_linked'), [
      { provider: NAME, by: 'password', notice: true },
    ])
    assert.deepEqual((await details(ana.id, 'sign_in')).at(-1), { method: 'password' })

    // From now on the provider alone signs in: the link finds the account.
    const again = await comeBackFromProvider('ana')
    assert.match(again.location, /^\/#\/login\?sso=[A-Za-z0-9_-]{43}$/)
  })

  it('Início does not count the link_required step the person then finished as a failed attempt', async () => {
    const jade = await api.addAccount({ email: 'jade@example.com', password: 'senha-da-jade-1' })
    const back = await comeBackFromProvider('jade')
    assert.equal(back.location, '/#/login?sso_error=link_required')
    const linked = await link(back.cookie, 'jade@example.com', 'senha-da-jade-1')
    assert.equal(linked.statusCode, 200, linked.body)
    const { token } = linked.json<{ token: string }>()
    // The refusal stays in the log, as it happened.
    assert.equal((await details(jade, 'sign_in_failed')).at(-1)?.reason, 'link_required')
    const mine = (await api.get('/api/dashboard/me', token)).json<MyActivity>()
    assert.equal(mine.failedSince, 0)
  })

  it('a link_required nobody finished is still a failed attempt on Início', async () => {
    await api.addAccount({ email: 'kai@example.com', password: 'senha-do-kai-1' })
    // Someone at the provider claims Kai's e-mail, and goes no further.
    await comeBackFromProvider('kai')
    const token = await api.signIn('kai@example.com', 'senha-do-kai-1')
    const mine = (await api.get('/api/dashboard/me', token)).json<MyActivity>()
    assert.equal(mine.failedSince, 1)
  })

  it('a used pending link is not used again, and none without the cookie', async () => {
    const bia = await api.addAccount({ email: 'bia@example.com', password: 'senha-da-bia-1' })
    const back = await comeBackFromProvider('bia')
    assert.equal((await link(back.cookie, 'bia@example.com', 'senha-da-bia-1')).statusCode, 200)
    const replay = await link(back.cookie, 'bia@example.com', 'senha-da-bia-1')
    assert.equal(replay.statusCode, 400)
    assert.equal(errorOf(replay).code, 'link_expired')
    const none = await link(undefined, 'bia@example.com', 'senha-da-bia-1')
    assert.equal(errorOf(none).code, 'link_expired')
    const forged = await link(`${PENDING_LINK_COOKIE}=${'a'.repeat(43)}`, 'bia@example.com', 'x')
    assert.equal(errorOf(forged).code, 'link_expired')
    assert.equal((await linksOf(bia)).length, 1)
  })

  it('an expired pending link links nothing, even with the right password', async () => {
    const caio = await api.addAccount({ email: 'caio@example.com', password: 'senha-do-caio-1' })
    const back = await comeBackFromProvider('caio')
    await api.database.db
      .updateTable('pending_provider_links')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .execute()
    const late = await link(back.cookie, 'caio@example.com', 'senha-do-caio-1')
    assert.equal(late.statusCode, 400)
    assert.equal(errorOf(late).code, 'link_expired')
    assert.equal((await linksOf(caio)).length, 0)
  })

  it('another account’s e-mail and password: refused like a wrong password, nothing linked', async () => {
    const duda = await api.addAccount({ email: 'duda@example.com', password: 'senha-da-duda-1' })
    const back = await comeBackFromProvider('duda')
    const admin = await api.database.db
      .selectFrom('accounts')
      .select('id')
      .where('email', '=', ADMIN.email)
      .executeTakeFirstOrThrow()
    const other = await link(back.cookie, ADMIN.email, ADMIN.password)
    assert.equal(other.statusCode, 401)
    assert.equal(errorOf(other).code, 'invalid_credentials')
    assert.equal((await linksOf(admin.id)).length, 0)
    assert.equal((await linksOf(duda)).length, 0)
    // The pending link is still the claimed account's to finish.
    assert.equal((await link(back.cookie, 'duda@example.com', 'senha-da-duda-1')).statusCode, 200)
    assert.equal((await linksOf(duda)).length, 1)
  })

  it('with a second factor: the link waits for the code of the challenge it opened', async () => {
    const eva = await api.account('eva-conta')
    await api.database.db
      .updateTable('accounts')
      .set({ email: 'eva@example.com' })
      .where('id', '=', eva.id)
      .execute()
    const evaToken = await api.signIn('eva@example.com', eva.password)
    const setup = (await api.call('POST', '/api/me/totp', evaToken)).json<TotpSetup>()
    const confirmed = await api.call('POST', '/api/me/totp/confirm', evaToken, {
      code: totpCode(setup.secret, new Date()),
    })
    const { recoveryCodes } = confirmed.json<RecoveryCodes>()

    const back = await comeBackFromProvider('eva')
    const step = await link(back.cookie, 'eva@example.com', eva.password)
    assert.equal(step.statusCode, 200, step.body)
    const { mfa } = step.json<MfaRequired>()
    assert.deepEqual(mfa.methods, ['totp', 'recovery_code'])
    assert.equal((await linksOf(eva.id)).length, 0, 'not before the second factor')

    // A challenge of an ordinary sign-in cannot finish this link.
    const ordinary = await api.passwordStep('eva@example.com', eva.password)
    const foreign = await linkCode(back.cookie, ordinary.challenge, recoveryCodes[0]!)
    assert.equal(errorOf(foreign).code, 'link_expired')

    const wrong = await linkCode(back.cookie, mfa.challenge, '000000')
    assert.equal(wrong.statusCode, 401)
    assert.equal(errorOf(wrong).code, 'invalid_code')
    assert.equal((await linksOf(eva.id)).length, 0)

    const right = await linkCode(back.cookie, mfa.challenge, recoveryCodes[1]!)
    assert.equal(right.statusCode, 200, right.body)
    assert.equal(right.json<{ recoveryCodesLeft: number }>().recoveryCodesLeft, 9)
    assert.equal((await linksOf(eva.id)).length, 1)
    assert.deepEqual(await details(eva.id, 'provider_linked'), [
      { provider: NAME, by: 'password', notice: true },
    ])
    const replay = await linkCode(back.cookie, mfa.challenge, recoveryCodes[2]!)
    assert.equal(errorOf(replay).code, 'link_expired')
  })

  it('two finishes at once: one links and signs in, the other is told the link is used', async () => {
    const fabi = await api.addAccount({ email: 'fabi@example.com', password: 'senha-da-fabi-1' })
    const back = await comeBackFromProvider('fabi')
    const answers = await Promise.all([
      link(back.cookie, 'fabi@example.com', 'senha-da-fabi-1'),
      link(back.cookie, 'fabi@example.com', 'senha-da-fabi-1'),
    ])
    assert.deepEqual(answers.map((answer) => answer.statusCode).sort(), [200, 400])
    assert.equal((await linksOf(fabi)).length, 1)
    assert.equal((await details(fabi, 'provider_linked')).length, 1)
  })

  it('a bad body is a 400 and links nothing', async () => {
    const gil = await api.addAccount({ email: 'gil@example.com', password: 'senha-do-gil-1' })
    const back = await comeBackFromProvider('gil')
    for (const body of [{}, { email: 'gil@example.com' }, { email: 1, password: 2 }, 'nada']) {
      const response = await api.app.inject({
        method: 'POST',
        url: '/api/auth/oidc/link',
        headers: { cookie: back.cookie, 'content-type': 'application/json' },
        payload: typeof body === 'string' ? body : JSON.stringify(body),
      })
      assert.equal(response.statusCode, 400, response.body)
    }
    assert.equal((await linksOf(gil)).length, 0)
  })
})

describe(`linking by password with PASSWORD_SIGN_IN=off (${testStoreName()})`, () => {
  let closed: ApiFixture
  before(async () => {
    closed = await apiFixture({
      authProviders: [corp()],
      passwordSignIn: false,
    })
  })
  after(() => closed.close())

  it('only the first admin may; anyone else is told the same as a wrong password', async () => {
    await closed.addAccount({ email: 'hugo@example.com', password: 'senha-do-hugo-1' })
    const back = await comeBackFromProvider('hugo', closed)
    const refused = await link(back.cookie, 'hugo@example.com', 'senha-do-hugo-1', closed)
    assert.equal(refused.statusCode, 401)
    assert.equal(errorOf(refused).code, 'invalid_credentials')
  })
})
