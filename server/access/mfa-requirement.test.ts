import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { LightMyRequestResponse } from 'fastify'
import type { MeAnswer } from '../../common/api/account'
import type { TotpSetup } from '../../common/api/me'
import type { MfaRequired } from '../config/config'
import { apiMessages } from '../http/messages'
import type { OpenApiDocument } from '../openapi/api-description'
import { insertPasskey } from '../accounts/passkey-store'
import { ADMIN, apiFixture, errorOf, type Method } from '../test/api-fixture'
import { TestClock } from '../test/test-clock'
import { testStoreName } from '../test/test-database'
import { MFA_SETUP_ROUTES } from './mfa-requirement'
import { totpCode } from '../accounts/totp'

/**
 * MFA_REQUIRED (mfa-requirement.ts): a signed-in person it covers who has no second factor may
 * only set one up or leave; every other call is 403 mfa_setup_required.
 */

/** An app with MFA_REQUIRED set, its clock, and calls with a token. */
async function appWith(setting: MfaRequired) {
  const clock = new TestClock()
  const api = await apiFixture({ mfaRequired: setting, authRateLimit: 1_000_000, clock: clock.now })
  const { call } = api
  const me = async (token: string) => {
    const response = await call('GET', '/api/auth/me', token)
    assert.equal(response.statusCode, 200, response.body)
    return response.json<MeAnswer>().user
  }
  let people = 0
  /** A new active account of that role, signed in. */
  const person = async (role: 'admin' | 'staff') => {
    people += 1
    const email = `pessoa${people}-${role}@example.com`
    const password = `senha-da-pessoa-${people}`
    const id = await api.addAccount({ email, password, role })
    return { id, email, password, token: await api.signIn(email, password) }
  }
  return { api, clock, call, me, person }
}

const refusedForSetup = (response: LightMyRequestResponse, what: string) => {
  assert.equal(response.statusCode, 403, `${what}: ${response.body}`)
  assert.deepEqual(
    errorOf(response),
    { code: 'mfa_setup_required', message: apiMessages.mfa_setup_required },
    what,
  )
}

describe(`MFA_REQUIRED=admins (${testStoreName()})`, () => {
  let world: Awaited<ReturnType<typeof appWith>>
  before(async () => {
    world = await appWith('admins')
  })
  after(() => world.api.close())

  it('an admin without a second factor may only set one up or leave, until TOTP is confirmed in the same session', async () => {
    const { call, me, clock, api } = world
    const token = await api.signIn(ADMIN.email, ADMIN.password)
    assert.equal((await me(token)).mfaSetupRequired, true)

    refusedForSetup(await call('GET', '/api/staff', token), 'GET /api/staff')
    refusedForSetup(await call('GET', '/api/audit', token), 'GET /api/audit')
    refusedForSetup(await call('GET', '/api/dashboard/me', token), 'GET /api/dashboard/me')
    refusedForSetup(
      await call('POST', '/api/staff/invitations', token, {
        name: 'Convidada',
        email: 'convidada@example.com',
        role: 'staff',
      }),
      'POST /api/staff/invitations',
    )
    refusedForSetup(
      await call('POST', '/api/auth/password', token, {
        currentPassword: ADMIN.password,
        newPassword: 'uma-senha-nova-e-longa-9',
      }),
      'POST /api/auth/password',
    )
    refusedForSetup(await call('DELETE', '/api/me/sessions', token), 'DELETE /api/me/sessions')
    // Nothing was done by the refused calls.
    assert.equal(
      (await api.database.db.selectFrom('accounts').select('id').execute()).length,
      1,
      'no invitation was created',
    )

    for (const [method, url] of [
      ['GET', '/api/me/session'],
      ['POST', '/api/me/session/renew'],
      ['GET', '/api/me/sessions'],
      ['GET', '/api/me/mfa'],
      ['GET', '/api/me/passkeys'],
      ['POST', '/api/me/passkeys/options'],
    ] as const) {
      const response = await call(method, url, token)
      assert.equal(response.statusCode, 200, `${method} ${url}: ${response.body}`)
    }
    // Adding a passkey is let through to its own checks (this answer is no passkey at all).
    const add = await call('POST', '/api/me/passkeys', token, {
      name: 'Falsa',
      response: {
        id: 'AAAA',
        rawId: 'AAAA',
        type: 'public-key',
        response: { clientDataJSON: 'AAAA', attestationObject: 'AAAA' },
        clientExtensionResults: {},
      },
    })
    assert.notEqual(add.statusCode, 403, add.body)

    const setup = await call('POST', '/api/me/totp', token)
    assert.equal(setup.statusCode, 200, setup.body)
    const { secret } = setup.json<TotpSetup>()
    const confirm = await call('POST', '/api/me/totp/confirm', token, {
      code: totpCode(secret, clock.now()),
    })
    assert.equal(confirm.statusCode, 200, confirm.body)

    // The same session goes on: no new sign-in needed.
    assert.equal((await me(token)).mfaSetupRequired, undefined)
    assert.equal((await call('GET', '/api/staff', token)).statusCode, 200)
    assert.equal((await call('GET', '/api/audit', token)).statusCode, 200)
  })

  it('logout works for a person who must set up a factor', async () => {
    const admin = await world.person('admin')
    assert.equal((await world.me(admin.token)).mfaSetupRequired, true)
    const out = await world.call('POST', '/api/auth/logout', admin.token)
    assert.equal(out.statusCode, 204, out.body)
    assert.equal((await world.call('GET', '/api/auth/me', admin.token)).statusCode, 401)
  })

  it('a passkey is a second factor too', async () => {
    const admin = await world.person('admin')
    refusedForSetup(await world.call('GET', '/api/staff', admin.token), 'before the passkey')
    await insertPasskey(world.api.database.db, {
      accountId: admin.id,
      credentialId: 'credencial-de-teste',
      publicKey: new Uint8Array([1, 2, 3]),
      counter: 0,
      transports: ['internal'],
      name: 'Notebook',
      now: new Date(),
    })
    assert.equal((await world.me(admin.token)).mfaSetupRequired, undefined)
    assert.equal((await world.call('GET', '/api/staff', admin.token)).statusCode, 200)
  })

  it('staff are not covered', async () => {
    const staff = await world.person('staff')
    assert.equal((await world.me(staff.token)).mfaSetupRequired, undefined)
    assert.equal((await world.call('GET', '/api/dashboard/me', staff.token)).statusCode, 200)
    // Their admin-only calls are refused as before, for being staff.
    assert.equal(errorOf(await world.call('GET', '/api/staff', staff.token)).code, 'forbidden')
  })

  it('every other signed-in call in the OpenAPI document is refused, and documents the 403', async () => {
    const admin = await world.person('admin')
    const document = (await world.api.get('/api/openapi.json')).json<OpenApiDocument>()
    let checked = 0
    for (const [path, operations] of Object.entries(document.paths ?? {})) {
      for (const [method, operation] of Object.entries(operations)) {
        if (!operation.security?.length) continue
        const route = `${method.toUpperCase()} ${path}`
        const refusal = operation.responses?.['403']
        if (MFA_SETUP_ROUTES.has(route)) {
          assert.doesNotMatch(refusal?.description ?? '', /mfa_setup_required/, route)
          continue
        }
        assert.match(refusal?.description ?? '', /mfa_setup_required/, `${route} documents it`)
        const url = path.replace(/\{[^}]+\}/g, '3f2504e0-4f89-41d3-9a0c-0305e82c3301')
        const response = await world.call(method.toUpperCase() as Method, url, admin.token, {})
        // A body the schema refuses is a 400 before any session is looked at; nothing passes.
        if (response.statusCode === 400) assert.equal(errorOf(response).code, 'invalid_input')
        else refusedForSetup(response, route)
        checked += 1
      }
    }
    assert.ok(checked > 15, `only ${checked} routes checked`)
  })
})

describe(`MFA_REQUIRED=all and off (${testStoreName()})`, () => {
  let all: Awaited<ReturnType<typeof appWith>>
  let off: Awaited<ReturnType<typeof appWith>>
  before(async () => {
    all = await appWith('all')
    off = await appWith('off')
  })
  after(async () => {
    await all.api.close()
    await off.api.close()
  })

  it('all covers staff as well as admins', async () => {
    const staff = await all.person('staff')
    assert.equal((await all.me(staff.token)).mfaSetupRequired, true)
    refusedForSetup(await all.call('GET', '/api/dashboard/me', staff.token), 'staff, all')
    const admin = await all.api.signIn(ADMIN.email, ADMIN.password)
    refusedForSetup(await all.call('GET', '/api/staff', admin), 'admin, all')
  })

  it('off covers nobody', async () => {
    const admin = await off.api.signIn(ADMIN.email, ADMIN.password)
    assert.equal((await off.me(admin)).mfaSetupRequired, undefined)
    assert.equal((await off.call('GET', '/api/staff', admin)).statusCode, 200)
  })
})
