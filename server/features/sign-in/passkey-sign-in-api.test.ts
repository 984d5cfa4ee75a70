import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { LightMyRequestResponse } from 'fastify'
import type { SignedIn } from '../../../common/api/auth'
import type { CreationOptions, RequestOptions } from '../../../common/api/webauthn'
import { totpCode } from '../../accounts/totp'
import { apiFixture, errorOf, PUBLIC_URL, type ApiFixture } from '../../test/api-fixture'
import { SoftwareAuthenticator, type AssertionTweaks } from '../../test/software-authenticator'
import { TestClock } from '../../test/test-clock'
import { testStoreName } from '../../test/test-database'

/** POST /api/auth/passkey/options and POST /api/auth/passkey: alone, and as a second factor. */

const clock = new TestClock()
let api: ApiFixture
before(async () => {
  api = await apiFixture({ authRateLimit: 1_000_000, clock: clock.now })
})
after(() => api.close())

/** A person who added a passkey in Minha conta (then signed that session out). */
async function withPasskey(status: 'active' | 'pending' | 'disabled' = 'active') {
  const { token, ...someone } = await api.person('entrar-chave')
  const options = await api.call('POST', '/api/me/passkeys/options', token, {})
  assert.equal(options.statusCode, 200, options.body)
  const authenticator = new SoftwareAuthenticator(PUBLIC_URL)
  const added = await api.call('POST', '/api/me/passkeys', token, {
    response: authenticator.register(options.json<CreationOptions>()),
    name: 'Notebook',
  })
  assert.equal(added.statusCode, 201, added.body)
  await api.call('POST', '/api/auth/logout', token, {})
  if (status !== 'active') {
    await api.database.db
      .updateTable('accounts')
      .set({ status })
      .where('id', '=', someone.id)
      .execute()
  }
  return { ...someone, authenticator }
}

async function signInOptions(body: object = {}): Promise<RequestOptions> {
  const response = await api.post('/api/auth/passkey/options', body)
  assert.equal(response.statusCode, 200, response.body)
  assert.equal(response.headers['cache-control'], 'no-store')
  return response.json<RequestOptions>()
}

/** The whole sign-in: options, the authenticator's signature, the server's answer. */
async function passkeySignIn(
  authenticator: SoftwareAuthenticator,
  tweaks: AssertionTweaks = {},
  headers: Record<string, string> = {},
) {
  const response = authenticator.authenticate(await signInOptions(), tweaks)
  return api.post('/api/auth/passkey', { response }, headers)
}

/** The sign-ins made with a passkey (withPasskey signed in with the password first). */
const passkeySignIns = async (accountId: string) =>
  (await api.events(accountId, 'sign_in')).filter(
    (event) => (JSON.parse(event.details) as { method?: string }).method === 'passkey',
  )

const passkeyRow = (accountId: string) =>
  api.database.db
    .selectFrom('passkeys')
    .selectAll()
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow()

function expectRefused(response: LightMyRequestResponse, why: string) {
  assert.equal(response.statusCode, 401, `${why}: ${response.body}`)
  assert.deepEqual(
    errorOf(response),
    {
      code: 'invalid_passkey',
      message: 'A chave de acesso não foi aceita. Tente de novo ou entre com seu e-mail e senha.',
    },
    why,
  )
}

describe(`Signing in with a passkey alone (${testStoreName()})`, () => {
  it('offers request options for any discoverable passkey of PUBLIC_URL, verified by the device', async () => {
    const options = await signInOptions()
    assert.equal(options.rpId, 'painel.example.com')
    assert.equal(options.userVerification, 'required')
    assert.deepEqual(options.allowCredentials ?? [], [])
    assert.match(options.challenge, /^[A-Za-z0-9_-]{43}$/)
  })

  it('signs in without an e-mail: a session token and the user, the device cookie, the use recorded and audited', async () => {
    const ana = await withPasskey()
    const answer = await passkeySignIn(ana.authenticator)
    assert.equal(answer.statusCode, 200, answer.body)
    const { token, user } = answer.json<SignedIn>()
    assert.equal(user.email, ana.email)
    assert.equal(answer.headers['cache-control'], 'no-store')
    assert.match(String(answer.headers['set-cookie']), /^painel_device=/)
    const me = await api.get('/api/auth/me', token)
    assert.equal(me.statusCode, 200)
    const row = await passkeyRow(ana.id)
    assert.equal(Number(row.counter), 1)
    assert.equal(row.last_used_at?.toISOString(), clock.now().toISOString())
    assert.equal((await passkeySignIns(ana.id)).length, 1)
  })

  it('uses a challenge once: the same signed answer again is refused', async () => {
    const bia = await withPasskey()
    const response = bia.authenticator.authenticate(await signInOptions())
    assert.equal((await api.post('/api/auth/passkey', { response })).statusCode, 200)
    expectRefused(await api.post('/api/auth/passkey', { response }), 'replayed')
  })

  it('refuses a cloned authenticator: a counter not above the last one seen', async () => {
    const caio = await withPasskey()
    const clone = caio.authenticator.clone()
    assert.equal((await passkeySignIn(caio.authenticator)).statusCode, 200)
    assert.equal((await passkeySignIn(caio.authenticator)).statusCode, 200)
    // The clone was copied when the counter was 0: its next use says 1, the server has seen 2.
    expectRefused(await passkeySignIn(clone), 'lower counter')
    expectRefused(await passkeySignIn(caio.authenticator, { counter: 2 }), 'same counter')
    assert.equal(Number((await passkeyRow(caio.id)).counter), 2)
    const failed = await api.events(caio.id, 'sign_in_failed')
    assert.equal(failed.length, 2)
    assert.deepEqual(JSON.parse(failed[0]!.details), { method: 'passkey' })
  })

  it('refuses what does not verify: another key, origin or RP ID, no user verification, a foreign challenge, a wrong user handle', async () => {
    const dora = await withPasskey()
    const tweaks: [AssertionTweaks, string][] = [
      [{ wrongKey: true }, 'signed by another key'],
      [{ origin: 'https://evil.example' }, 'another origin'],
      [{ rpId: 'evil.example' }, 'another RP ID'],
      [{ userVerified: false }, 'the device did not verify the person'],
      [
        { challenge: Buffer.alloc(32, 1).toString('base64url') },
        'a challenge the server never gave',
      ],
      [{ type: 'webauthn.create' }, 'a registration type'],
      [{ userHandle: Buffer.from(crypto.randomUUID()).toString('base64url') }, 'another user'],
    ]
    // Five failures make this account wait from this address: a second person for the rest.
    const more = await withPasskey()
    for (const [index, [tweak, why]] of tweaks.entries()) {
      const who = index < 4 ? dora : more
      expectRefused(await passkeySignIn(who.authenticator, tweak), why)
    }
    assert.equal((await passkeySignIns(dora.id)).length, 0)
    assert.equal(
      (await passkeySignIn(more.authenticator)).statusCode,
      200,
      'the right answer works',
    )
  })

  it('refuses an unknown passkey and answers junk with 401 or 400, never a 500', async () => {
    const stranger = new SoftwareAuthenticator(PUBLIC_URL)
    stranger.register({
      rp: { id: 'painel.example.com', name: 'Painel' },
      user: { id: 'dXNlcg', name: 'x', displayName: 'x' },
      challenge: 'AAAA',
      pubKeyCredParams: [{ alg: -7, type: 'public-key' }],
    })
    expectRefused(await passkeySignIn(stranger), 'unknown credential')
    const junk = {
      id: 'AAAA',
      rawId: 'AAAA',
      type: 'public-key',
      response: { clientDataJSON: 'AAAA', authenticatorData: 'AAAA', signature: 'AAAA' },
      clientExtensionResults: {},
    }
    expectRefused(await api.post('/api/auth/passkey', { response: junk }), 'junk')
    const bad = await api.post('/api/auth/passkey', { response: { id: 'x' } })
    assert.equal(bad.statusCode, 400)
  })

  it('lets a challenge expire after 5 minutes', async () => {
    const eva = await withPasskey()
    const options = await signInOptions()
    clock.advanceMinutes(5)
    const response = eva.authenticator.authenticate(options)
    expectRefused(await api.post('/api/auth/passkey', { response }), 'expired')
  })

  it('refuses pending and disabled accounts like the password sign-in (after the passkey proves itself)', async () => {
    const pending = await withPasskey('pending')
    const waiting = await passkeySignIn(pending.authenticator)
    assert.equal(waiting.statusCode, 403)
    assert.equal(errorOf(waiting).code, 'pending_approval')
    const disabled = await withPasskey('disabled')
    const refused = await passkeySignIn(disabled.authenticator)
    assert.equal(refused.statusCode, 403)
    assert.equal(errorOf(refused).code, 'account_disabled')
    assert.equal((await passkeySignIns(disabled.id)).length, 0)
    assert.equal((await passkeySignIns(pending.id)).length, 0)
  })

  it('counts failures in the same sign-in limits as passwords: wrong passwords and bad passkeys add up, then even a good passkey waits (429)', async () => {
    const gil = await withPasskey()
    for (let i = 0; i < 3; i += 1) {
      const wrong = await api.post('/api/auth/login', { email: gil.email, password: 'errada!!' })
      assert.equal(wrong.statusCode, 401)
    }
    for (let i = 0; i < 2; i += 1) {
      expectRefused(await passkeySignIn(gil.authenticator, { wrongKey: true }), 'forged')
    }
    // 5 failures of this account from this address: the next try waits, passkey or not.
    const held = await passkeySignIn(gil.authenticator)
    assert.equal(held.statusCode, 429, held.body)
    assert.equal(errorOf(held).code, 'too_many_attempts')
    assert.ok(Number(held.headers['retry-after']) > 0)
    const password = await api.post('/api/auth/login', { email: gil.email, password: gil.password })
    assert.equal(password.statusCode, 429, 'the password waits too')
  })
})

describe(`A passkey as the second factor of a login (${testStoreName()})`, () => {
  it('offers passkey in the login step, and finishes the login with one of that account’s passkeys', async () => {
    const hugo = await withPasskey()
    const mfa = await api.passwordStep(hugo.email, hugo.password)
    assert.deepEqual(mfa.methods, ['passkey'])
    const options = await signInOptions({ challenge: mfa.challenge })
    assert.deepEqual(options.allowCredentials, [
      {
        id: hugo.authenticator.credentials[0]!.id.toString('base64url'),
        type: 'public-key',
        transports: ['internal'],
      },
    ])
    assert.equal(options.userVerification, 'preferred', 'the password was the first factor')
    const response = hugo.authenticator.authenticate(options, { userVerified: false })
    const answer = await api.post('/api/auth/passkey', { response, challenge: mfa.challenge })
    assert.equal(answer.statusCode, 200, answer.body)
    assert.equal(answer.json<SignedIn>().user.email, hugo.email)
    // The login's challenge is used up.
    const again = await api.post('/api/auth/login/mfa', {
      challenge: mfa.challenge,
      code: '123456',
    })
    assert.equal(again.statusCode, 401)
    assert.equal(errorOf(again).code, 'challenge_expired')
    assert.equal((await passkeySignIns(hugo.id)).length, 1)
  })

  it('lists passkey beside the code methods when the account has TOTP too', async () => {
    const iris = await withPasskey()
    // A session to turn TOTP on in (the passkey alone signs in).
    const { token } = (await passkeySignIn(iris.authenticator)).json<SignedIn>()
    const setup = await api.call('POST', '/api/me/totp', token, {})
    const { secret } = setup.json<{ secret: string }>()
    const confirmed = await api.call('POST', '/api/me/totp/confirm', token, {
      code: totpCode(secret, clock.now()),
    })
    assert.equal(confirmed.statusCode, 200, confirmed.body)
    const mfa = await api.passwordStep(iris.email, iris.password)
    assert.deepEqual(mfa.methods, ['totp', 'recovery_code', 'passkey'])
  })

  it("refuses another account's passkey, a sign-in-alone challenge, and a login challenge that expired", async () => {
    const joao = await withPasskey()
    const kim = await withPasskey()
    const mfa = await api.passwordStep(joao.email, joao.password)
    // Kim's passkey over options asked with João's login challenge.
    const options = await signInOptions({ challenge: mfa.challenge })
    const kims = kim.authenticator.authenticate(options, {
      credentialId: kim.authenticator.credentials[0]!.id.toString('base64url'),
    })
    expectRefused(
      await api.post('/api/auth/passkey', { response: kims, challenge: mfa.challenge }),
      "another account's passkey",
    )
    // João's passkey over a challenge given for a sign-in alone, sent with the login challenge.
    const alone = joao.authenticator.authenticate(await signInOptions())
    expectRefused(
      await api.post('/api/auth/passkey', { response: alone, challenge: mfa.challenge }),
      'a challenge of another use',
    )
    // And the login's passkey challenge cannot be spent on a sign-in alone.
    const bound = joao.authenticator.authenticate(await signInOptions({ challenge: mfa.challenge }))
    expectRefused(await api.post('/api/auth/passkey', { response: bound }), 'bound to the login')
    assert.equal((await api.events(joao.id, 'sign_in_failed')).length, 3)

    clock.advanceMinutes(5)
    const late = await api.post('/api/auth/passkey/options', { challenge: mfa.challenge })
    assert.equal(late.statusCode, 401)
    assert.equal(errorOf(late).code, 'challenge_expired')
  })

  it('counts each passkey try against the login challenge (5 tries)', async () => {
    const lia = await withPasskey()
    const mfa = await api.passwordStep(lia.email, lia.password)
    for (let i = 0; i < 5; i += 1) {
      const options = await signInOptions({ challenge: mfa.challenge })
      const forged = lia.authenticator.authenticate(options, { wrongKey: true })
      expectRefused(
        await api.post('/api/auth/passkey', { response: forged, challenge: mfa.challenge }),
        `try ${i + 1}`,
      )
    }
    const options = await api.post('/api/auth/passkey/options', { challenge: mfa.challenge })
    assert.equal(options.statusCode, 401)
    assert.equal(errorOf(options).code, 'challenge_expired')
  })
})
