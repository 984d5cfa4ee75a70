import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { MfaStatus, PasskeyAnswer, PasskeyList } from '../../../common/api/me'
import type { CreationOptions, RegistrationCredential } from '../../../common/api/webauthn'
import { ADMIN, apiFixture, errorOf, PUBLIC_URL, type ApiFixture } from '../../test/api-fixture'
import { SoftwareAuthenticator } from '../../test/software-authenticator'
import { TestClock } from '../../test/test-clock'
import { testStoreName } from '../../test/test-database'

/** /api/me/passkeys: adding (options, then the authenticator's answer), listing, renaming, removing. */

const clock = new TestClock()
let api: ApiFixture
before(async () => {
  api = await apiFixture({ authRateLimit: 1_000_000, clock: clock.now })
})
after(() => api.close())

async function creationOptions(token: string): Promise<CreationOptions> {
  const response = await api.call('POST', '/api/me/passkeys/options', token)
  assert.equal(response.statusCode, 200, response.body)
  assert.equal(response.headers['cache-control'], 'no-store')
  return response.json<CreationOptions>()
}

const add = (token: string, response: RegistrationCredential, name = 'Notebook') =>
  api.call('POST', '/api/me/passkeys', token, { response, name })

/** A person with one passkey on a software authenticator. */
async function withPasskey(name = 'Notebook') {
  const someone = await api.person('chave')
  const authenticator = new SoftwareAuthenticator(PUBLIC_URL)
  const answer = await add(
    someone.token,
    authenticator.register(await creationOptions(someone.token)),
    name,
  )
  assert.equal(answer.statusCode, 201, answer.body)
  return { ...someone, authenticator, passkey: answer.json<PasskeyAnswer>().passkey }
}

const listOf = async (token: string) => {
  const response = await api.call('GET', '/api/me/passkeys', token)
  assert.equal(response.statusCode, 200, response.body)
  return response.json<PasskeyList>().passkeys
}

const storedPasskeys = (accountId: string) =>
  api.database.db.selectFrom('passkeys').selectAll().where('account_id', '=', accountId).execute()

describe(`Adding a passkey under /api/me (${testStoreName()})`, () => {
  it('offers creation options for PUBLIC_URL: a discoverable, verified ES256-capable credential for this account', async () => {
    const ana = await api.person('chave')
    const options = await creationOptions(ana.token)
    assert.deepEqual(options.rp, { id: 'painel.example.com', name: 'Painel' })
    assert.equal(options.user.name, ana.email)
    assert.equal(options.user.displayName, ana.name)
    assert.equal(Buffer.from(options.user.id, 'base64url').toString(), ana.id)
    assert.match(options.challenge, /^[A-Za-z0-9_-]{43}$/)
    assert.ok(options.pubKeyCredParams.some((param) => param.alg === -7))
    assert.equal(options.authenticatorSelection?.residentKey, 'required')
    assert.equal(options.authenticatorSelection?.userVerification, 'required')
    assert.equal(options.attestation, 'none')
    assert.deepEqual(options.excludeCredentials, [])
    const again = await creationOptions(ana.token)
    assert.notEqual(again.challenge, options.challenge, 'a new challenge every time')
  })

  it('adds a verified passkey: 201, listed with its name and dates, stored with its key, counter and transports, audited', async () => {
    const bia = await withPasskey('  Notebook do trabalho  ')
    assert.equal(bia.passkey.name, 'Notebook do trabalho', 'trimmed')
    assert.equal(bia.passkey.lastUsedAt, null)
    assert.equal(bia.passkey.createdAt, clock.now().toISOString())
    assert.deepEqual(await listOf(bia.token), [bia.passkey])
    const [row] = await storedPasskeys(bia.id)
    assert.ok(row)
    const credential = bia.authenticator.credentials[0]!
    assert.equal(row.credential_id, credential.id.toString('base64url'))
    // The COSE key the authenticator sent is what the server keeps.
    assert.equal(row.public_key, credential.publicKeyCose.toString('base64url'))
    assert.equal(Number(row.counter), 0)
    assert.deepEqual(JSON.parse(row.transports), ['internal'])
    const [event] = await api.events(bia.id, 'passkey_added')
    assert.ok(event)
    assert.equal(event.actor_id, bia.id)
    assert.deepEqual(JSON.parse(event.details), {
      passkey: bia.passkey.id,
      name: 'Notebook do trabalho',
      // Its owner was told by mail (security-notices/): the event says so.
      notice: true,
    })
    const status = await api.call('GET', '/api/me/mfa', bia.token)
    assert.equal(status.json<MfaStatus>().passkeys, 1)
  })

  it('lists the passkeys already added in excludeCredentials, so one authenticator is not added twice', async () => {
    const caio = await withPasskey()
    const options = await creationOptions(caio.token)
    assert.deepEqual(options.excludeCredentials, [
      {
        id: caio.authenticator.credentials[0]!.id.toString('base64url'),
        type: 'public-key',
        transports: ['internal'],
      },
    ])
    assert.throws(() => caio.authenticator.register(options), /InvalidStateError/)
    clock.advance(1000)
    const second = new SoftwareAuthenticator(PUBLIC_URL)
    const added = await add(caio.token, second.register(options), 'Celular')
    assert.equal(added.statusCode, 201, added.body)
    assert.deepEqual(
      (await listOf(caio.token)).map((passkey) => passkey.name),
      ['Notebook', 'Celular'],
    )
  })

  it('uses a challenge once: the same answer again is refused, and nothing more is stored', async () => {
    const dora = await api.person('chave')
    const authenticator = new SoftwareAuthenticator(PUBLIC_URL)
    const response = authenticator.register(await creationOptions(dora.token))
    assert.equal((await add(dora.token, response)).statusCode, 201)
    const replay = await add(dora.token, response)
    assert.equal(replay.statusCode, 400)
    assert.equal(errorOf(replay).code, 'invalid_passkey')
    assert.equal((await storedPasskeys(dora.id)).length, 1)
  })

  it('binds the challenge to the session that asked: another session of the same person cannot use it', async () => {
    const eva = await api.person('chave')
    const otherSession = await api.signIn(eva.email, eva.password)
    const response = new SoftwareAuthenticator(PUBLIC_URL).register(
      await creationOptions(eva.token),
    )
    const elsewhere = await add(otherSession, response)
    assert.equal(elsewhere.statusCode, 400, elsewhere.body)
    assert.equal(errorOf(elsewhere).code, 'invalid_passkey')
    // Refused, not consumed: the session that asked can still finish.
    assert.equal((await add(eva.token, response)).statusCode, 201)
  })

  it("refuses another person's challenge", async () => {
    const fabio = await api.person('chave')
    const gil = await api.person('chave')
    const response = new SoftwareAuthenticator(PUBLIC_URL).register(
      await creationOptions(fabio.token),
    )
    const answer = await add(gil.token, response)
    assert.equal(answer.statusCode, 400)
    assert.equal((await storedPasskeys(gil.id)).length, 0)
  })

  it('lets a challenge expire after 5 minutes', async () => {
    const hugo = await api.person('chave')
    const options = await creationOptions(hugo.token)
    clock.advanceMinutes(5)
    const late = await add(hugo.token, new SoftwareAuthenticator(PUBLIC_URL).register(options))
    assert.equal(late.statusCode, 400)
    assert.equal(errorOf(late).code, 'invalid_passkey')
    assert.equal((await storedPasskeys(hugo.id)).length, 0)
  })

  it('refuses answers that do not verify: another origin, another RP ID, no user verification, a challenge of its own, a sign-in type', async () => {
    const iris = await api.person('chave')
    const tweaks = [
      { origin: 'https://painel.example.com.evil.example' },
      { origin: 'http://painel.example.com' },
      { rpId: 'evil.example' },
      { userVerified: false },
      { challenge: Buffer.alloc(32, 7).toString('base64url') },
      { type: 'webauthn.get' },
    ]
    for (const tweak of tweaks) {
      const options = await creationOptions(iris.token)
      const response = new SoftwareAuthenticator(PUBLIC_URL).register(options, tweak)
      const answer = await add(iris.token, response)
      assert.equal(answer.statusCode, 400, `${JSON.stringify(tweak)}: ${answer.body}`)
      assert.equal(errorOf(answer).code, 'invalid_passkey')
    }
    assert.equal((await storedPasskeys(iris.id)).length, 0)
    assert.equal((await api.events(iris.id, 'passkey_added')).length, 0)
  })

  it('refuses a credential id some account has already', async () => {
    const joao = await withPasskey()
    const kim = await api.person('chave')
    // Kim's authenticator makes a key of its own under João's credential id: a new key must
    // not take over an id the server already knows (sign-ins look passkeys up by it).
    const response = new SoftwareAuthenticator(PUBLIC_URL).register(
      await creationOptions(kim.token),
      { credentialId: joao.authenticator.credentials[0]!.id },
    )
    const answer = await add(kim.token, response)
    assert.equal(answer.statusCode, 400, answer.body)
    assert.equal(errorOf(answer).code, 'invalid_passkey')
    assert.equal((await storedPasskeys(kim.id)).length, 0)
    assert.equal(
      (await storedPasskeys(joao.id))[0]?.public_key,
      joao.authenticator.credentials[0]!.publicKeyCose.toString('base64url'),
    )
  })

  it('refuses a blank or unstorable name before using the challenge', async () => {
    const lia = await api.person('chave')
    const response = new SoftwareAuthenticator(PUBLIC_URL).register(
      await creationOptions(lia.token),
    )
    const blank = await add(lia.token, response, '   ')
    assert.equal(blank.statusCode, 400)
    assert.deepEqual(errorOf(blank), {
      code: 'invalid_input',
      message: 'Informe um nome para a chave de acesso.',
    })
    const hidden = await add(lia.token, response, 'Chave\u202e')
    assert.equal(hidden.statusCode, 400)
    assert.equal(errorOf(hidden).message, 'O nome da chave contém caracteres não permitidos.')
    assert.equal((await add(lia.token, response, 'Chave')).statusCode, 201)
  })

  it('refuses answers that are not WebAuthn at all with a 400, never a 500', async () => {
    const mel = await api.person('chave')
    await creationOptions(mel.token)
    const junk = {
      id: 'AAAA',
      rawId: 'AAAA',
      type: 'public-key',
      response: { clientDataJSON: 'AAAA', attestationObject: 'AAAA' },
      clientExtensionResults: {},
    }
    const answer = await api.call('POST', '/api/me/passkeys', mel.token, {
      response: junk,
      name: 'x',
    })
    assert.equal(answer.statusCode, 400)
    const options = await creationOptions(mel.token)
    const real = new SoftwareAuthenticator(PUBLIC_URL).register(options)
    const mangled = {
      ...real,
      response: {
        ...real.response,
        attestationObject: Buffer.from('not cbor').toString('base64url'),
      },
    }
    assert.equal((await add(mel.token, mangled)).statusCode, 400)
  })
})

describe(`Renaming and removing passkeys (${testStoreName()})`, () => {
  it('a rename to the same name is answered, and not recorded', async () => {
    const ivo = await withPasskey('Mesmo')
    const same = await api.call('PATCH', `/api/me/passkeys/${ivo.passkey.id}`, ivo.token, {
      name: ' Mesmo ',
    })
    assert.equal(same.statusCode, 200, same.body)
    assert.deepEqual(same.json<PasskeyAnswer>().passkey, ivo.passkey)
    assert.deepEqual(await api.events(ivo.id, 'passkey_renamed'), [])
  })

  it('renames one of my passkeys: 200 with the new name, audited with both names', async () => {
    const nina = await withPasskey('Velho')
    const renamed = await api.call('PATCH', `/api/me/passkeys/${nina.passkey.id}`, nina.token, {
      name: ' Novo nome ',
    })
    assert.equal(renamed.statusCode, 200, renamed.body)
    assert.deepEqual(renamed.json<PasskeyAnswer>().passkey, { ...nina.passkey, name: 'Novo nome' })
    assert.equal((await listOf(nina.token))[0]?.name, 'Novo nome')
    const [event] = await api.events(nina.id, 'passkey_renamed')
    assert.deepEqual(JSON.parse(event!.details), {
      passkey: nina.passkey.id,
      from: 'Velho',
      name: 'Novo nome',
    })
    const upper = await api.call(
      'PATCH',
      `/api/me/passkeys/${nina.passkey.id.toUpperCase()}`,
      nina.token,
      { name: 'Maiúsculas' },
    )
    assert.equal(upper.statusCode, 200, 'ids compare case-insensitively')
    const blank = await api.call('PATCH', `/api/me/passkeys/${nina.passkey.id}`, nina.token, {
      name: '\u200b',
    })
    assert.equal(blank.statusCode, 400)
  })

  it('removes one of my passkeys: 204, gone from the list and the database, audited', async () => {
    const otto = await withPasskey('Chave do Otto')
    const removed = await api.call('DELETE', `/api/me/passkeys/${otto.passkey.id}`, otto.token)
    assert.equal(removed.statusCode, 204)
    assert.equal(removed.body, '')
    assert.deepEqual(await listOf(otto.token), [])
    assert.equal((await storedPasskeys(otto.id)).length, 0)
    const [event] = await api.events(otto.id, 'passkey_removed')
    assert.deepEqual(JSON.parse(event!.details), {
      passkey: otto.passkey.id,
      name: 'Chave do Otto',
      by: 'owner',
      notice: true,
    })
    const again = await api.call('DELETE', `/api/me/passkeys/${otto.passkey.id}`, otto.token)
    assert.equal(again.statusCode, 404)
    assert.equal(errorOf(again).code, 'not_found')
  })

  it("cannot see, rename or remove another person's passkey (404, and it stays)", async () => {
    const paula = await withPasskey('Da Paula')
    const quim = await api.person('chave')
    assert.deepEqual(await listOf(quim.token), [])
    const rename = await api.call('PATCH', `/api/me/passkeys/${paula.passkey.id}`, quim.token, {
      name: 'Minha agora',
    })
    assert.equal(rename.statusCode, 404)
    const remove = await api.call('DELETE', `/api/me/passkeys/${paula.passkey.id}`, quim.token)
    assert.equal(remove.statusCode, 404)
    assert.deepEqual(await listOf(paula.token), [paula.passkey])
  })

  it('needs a session for every call, and a UUID for an id', async () => {
    const rita = await withPasskey()
    const id = rita.passkey.id
    const response = new SoftwareAuthenticator(PUBLIC_URL).register(
      await creationOptions(rita.token),
    )
    for (const [method, url, payload] of [
      ['GET', '/api/me/passkeys'],
      ['POST', '/api/me/passkeys/options'],
      ['POST', '/api/me/passkeys', { response, name: 'x' }],
      ['PATCH', `/api/me/passkeys/${id}`, { name: 'x' }],
      ['DELETE', `/api/me/passkeys/${id}`],
    ] as const) {
      const answer = await api.call(method, url, undefined, payload)
      assert.equal(answer.statusCode, 401, `${method} ${url}`)
    }
    const notUuid = await api.call('DELETE', '/api/me/passkeys/abc', rita.token)
    assert.equal(notUuid.statusCode, 400)
    assert.equal((await storedPasskeys(rita.id)).length, 1)
  })

  it("an admin's 'turn off second factor' removes the person's passkeys too, audited", async () => {
    const sara = await withPasskey()
    const admin = await api.signIn(ADMIN.email, ADMIN.password)
    const off = await api.call('DELETE', `/api/staff/${sara.id}/mfa`, admin)
    assert.equal(off.statusCode, 204, off.body)
    assert.deepEqual(await listOf(sara.token), [])
    const [event] = await api.events(sara.id, 'mfa_disabled')
    assert.ok(event)
    assert.equal((JSON.parse(event.details) as { passkeys: number }).passkeys, 1)
  })
})
