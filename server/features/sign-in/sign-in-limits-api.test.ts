import assert from 'node:assert/strict'
import { randomBytes, scryptSync } from 'node:crypto'
import { after, before, describe, it } from 'node:test'
import type { LightMyRequestResponse } from 'fastify'
import { ADMIN, apiFixture, type ApiFixture } from '../../test/api-fixture'
import { testStoreName } from '../../test/test-database'
import { unlockAccount } from '../../accounts/account-administration'
import { createAccount } from '../../accounts/accounts'
import { delayAfter, limitKeys, RULES, SignInLimits } from '../../accounts/sign-in-limits'
import { DEVICE_COOKIE } from '../../accounts/trusted-devices'

let api: ApiFixture
before(async () => {
  // The per-address burst limit of /api/auth is not what these tests are about.
  api = await apiFixture({ authRateLimit: 1_000_000 })
})
after(() => api.close())

/**
 * An account whose stored hash uses cheap scrypt parameters (verification follows the stored
 * ones), so hundreds of wrong guesses take seconds: what is tested is the counting, not scrypt.
 */
async function addAccount(email: string, password: string): Promise<void> {
  const salt = randomBytes(16)
  const key = scryptSync(password, salt, 64, { N: 1024, r: 8, p: 1 })
  const hash = ['scrypt', 1024, 8, 1, salt.toString('base64'), key.toString('base64')].join('$')
  await createAccount(api.database.db, {
    name: 'Pessoa de Teste',
    email,
    passwordHash: hash,
    role: 'staff',
    status: 'active',
  })
}

const login = (email: string, password: string, remoteAddress: string, device?: string) =>
  api.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password },
    remoteAddress,
    ...(device ? { cookies: { [DEVICE_COOKIE]: device } } : {}),
  })

const deviceOf = (response: LightMyRequestResponse) => {
  const cookie = response.cookies.find((entry) => entry.name === DEVICE_COOKIE)
  assert.ok(cookie, 'a device cookie is set')
  return cookie.value
}

/** n wrong guesses from n different addresses (none of them the owner's), some at once. */
async function guessesFromManyAddresses(email: string, n: number, offset = 0) {
  const statuses: number[] = []
  for (let start = 0; start < n; start += 10) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(10, n - start) }, (_, i) => {
        const k = offset + start + i
        return login(email, `chute-${k}-xx`, `10.${(k >> 16) & 255}.${(k >> 8) & 255}.${k & 255}`)
      }),
    )
    statuses.push(...batch.map((response) => response.statusCode))
  }
  return statuses
}

const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length

/** A 429's Retry-After: `full` seconds, or one less when a second passed since the failure. */
function assertRetryAfter(response: { headers: Record<string, unknown> }, full: number): void {
  const seconds = Number(response.headers['retry-after'])
  assert.ok(seconds === full || seconds === full - 1, `Retry-After ${seconds}, expected ${full}`)
}

describe(`sign-in limits (${testStoreName()})`, () => {
  it('40 concurrent wrong guesses from one address: only the free tries reach the password check', async () => {
    await addAccount('v@example.com', 'senha-da-vitima-1')
    const responses = await Promise.all(
      Array.from({ length: 40 }, (_, i) => login('v@example.com', `chute-${i}-xx`, '203.0.113.9')),
    )
    const statuses = responses.map((response) => response.statusCode)
    assert.equal(count(statuses, 401), RULES.accountAndAddress.free, statuses.join(' '))
    assert.equal(count(statuses, 429), 40 - RULES.accountAndAddress.free)
  })

  it('concurrent tries against one key: exactly as many pass the gate as the limit leaves', async () => {
    const limits = new SignInLimits(api.database.db)
    const key = limitKeys.account('corrida@example.com')
    for (let i = 0; i < 90; i += 1) assert.ok((await limits.gate([key])).allowed)
    const results = await Promise.all(Array.from({ length: 40 }, () => limits.gate([key])))
    assert.equal(results.filter((result) => result.allowed).length, 10)
  })

  for (const failures of [10, 100, 1000]) {
    it(`after ${failures} failed guesses from other addresses the owner signs in at once from a browser that signed in before`, async () => {
      const email = `dono-${failures}@example.com`
      await addAccount(email, 'senha-do-dono-1')
      const first = await login(email, 'senha-do-dono-1', '192.0.2.10')
      assert.equal(first.statusCode, 200)
      const device = deviceOf(first)

      const statuses = await guessesFromManyAddresses(email, failures)
      // From new browsers, at most 100 a day reach the password check (NIST SP 800-63B).
      assert.equal(count(statuses, 401), Math.min(failures, RULES.account.perWindow))
      assert.equal(count(statuses, 429), Math.max(0, failures - RULES.account.perWindow))

      const owner = await login(email, 'senha-do-dono-1', '192.0.2.10', device)
      assert.equal(owner.statusCode, 200, owner.body)
      // And the next sign-in works with the new device token the answer gave.
      assert.equal(
        (await login(email, 'senha-do-dono-1', '192.0.2.11', deviceOf(owner))).statusCode,
        200,
      )
    })
  }

  it('from a new browser, an account with 100 failures today waits, and the answer says how long', async () => {
    const email = 'cheia@example.com'
    await addAccount(email, 'senha-da-conta-1')
    await guessesFromManyAddresses(email, 100, 5000)
    const refused = await login(email, 'senha-da-conta-1', '198.51.100.77')
    assert.equal(refused.statusCode, 429)
    const retryAfter = Number(refused.headers['retry-after'])
    assert.ok(retryAfter > 23 * 3600 && retryAfter <= 24 * 3600, `Retry-After: ${retryAfter}`)
    assert.equal(refused.json<{ error: { code: string } }>().error.code, 'too_many_attempts')
    assert.match(
      refused.json<{ error: { message: string } }>().error.message,
      /Tente novamente em \d+ (minutos|horas?)/,
    )

    // An admin lifts the lock (the service call behind the Equipe screen's button).
    const id = (
      await api.database.db
        .selectFrom('accounts')
        .select('id')
        .where('email', '=', email)
        .executeTakeFirstOrThrow()
    ).id
    await unlockAccount(api.database.db, new SignInLimits(api.database.db), id.toUpperCase())
    assert.equal((await login(email, 'senha-da-conta-1', '198.51.100.77')).statusCode, 200)
  })

  it("an attacker's address waits with growing delays; the owner from another address is not held", async () => {
    const email = 'alvo@example.com'
    await addAccount(email, 'senha-do-alvo-1')
    const attacker = '203.0.113.66'
    const statuses = []
    for (let i = 0; i < 12; i += 1)
      statuses.push((await login(email, `x${i}-xxxxxx`, attacker)).statusCode)
    assert.deepEqual(statuses, [...Array<number>(5).fill(401), ...Array<number>(7).fill(429)])
    const refused = await login(email, 'x-outra-xxx', attacker)
    // Retry-After is the whole seconds left, counted from when the failure was written: a busy
    // machine can spend a second between that write and this answer (a loaded CI run read 119
    // for 120), so the last second may already be gone.
    assertRetryAfter(refused, 60)

    // The owner, from a new browser elsewhere, is not affected.
    assert.equal((await login(email, 'senha-do-alvo-1', '198.51.100.5')).statusCode, 200)

    // After the wait, one more failure doubles it.
    await api.database.db
      .updateTable('sign_in_limits')
      .set({ blocked_until: new Date(Date.now() - 1000) })
      .where('key', '=', limitKeys.accountAndAddress(email, attacker).key)
      .execute()
    assert.equal((await login(email, 'x-depois-xx', attacker)).statusCode, 401)
    assertRetryAfter(await login(email, 'x-de-novo-x', attacker), 120)
    assert.deepEqual(
      [5, 6, 7, 8, 12, 20].map((n) => delayAfter(RULES.accountAndAddress, n)),
      [60, 120, 240, 480, 3600, 3600],
    )
  })

  it('the owner behind an address full of failures (an office NAT) signs in from a trusted browser', async () => {
    const office = '198.51.100.200'
    const first = await login(ADMIN.email, ADMIN.password, office)
    const device = deviceOf(first)
    for (let i = 0; i < RULES.address.free + 5; i += 1) {
      await addAccount(`colega-${i}@example.com`, `senha-da-colega-${i}`)
      await login(`colega-${i}@example.com`, 'senha-errada-1', office)
    }
    assert.equal((await login('outro@example.com', 'senha-errada-1', office)).statusCode, 429)
    assert.equal((await login(ADMIN.email, ADMIN.password, office, device)).statusCode, 200)
  })

  it('the device cookie is HttpOnly, SameSite=Strict and scoped to /api/auth', async () => {
    const response = await login(ADMIN.email, ADMIN.password, '192.0.2.99')
    const cookie = response.cookies.find((entry) => entry.name === DEVICE_COOKIE)
    assert.ok(cookie)
    assert.equal(cookie.httpOnly, true)
    assert.equal(cookie.sameSite, 'Strict')
    assert.equal(cookie.path, '/api/auth')
    assert.match(cookie.value, /^[A-Za-z0-9_-]{43}$/)
  })

  it('a device token is trusted only for its own account', async () => {
    await addAccount('a1@example.com', 'senha-a1-xyz')
    await addAccount('b1@example.com', 'senha-b1-xyz')
    const device = deviceOf(await login('a1@example.com', 'senha-a1-xyz', '192.0.2.120'))
    const statuses = []
    for (let i = 0; i < 8; i += 1) {
      statuses.push(
        (await login('b1@example.com', `x${i}-errada`, '192.0.2.120', device)).statusCode,
      )
    }
    assert.equal(count(statuses, 429), 8 - RULES.accountAndAddress.free)
  })
})
