import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { TotpSetup } from '../../../common/api/me'
import type { MfaRequired } from '../../../common/api/auth'
import { apiFixture, type ApiFixture } from '../../test/api-fixture'
import { TestClock } from '../../test/test-clock'
import { testStoreName } from '../../test/test-database'
import { totpCode } from '../../accounts/totp'

/**
 * Someone who has the password but not the phone guesses second-factor codes from one address:
 * password, wrong codes, password again, ... over a simulated day. A right password must not
 * wipe the failures counted so far (only a completed sign-in does), so codes reach the check no
 * faster than wrong passwords would from that address.
 */

const DAY_MS = 86_400_000
const ADDRESS = '198.51.100.23'

let api: ApiFixture
const clock = new TestClock()
before(async () => {
  // The per-address burst limit of /api/auth is not what this is about.
  api = await apiFixture({ authRateLimit: 1_000_000, clock: clock.now })
})
after(() => api.close())

const login = (email: string, password: string) =>
  api.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password },
    remoteAddress: ADDRESS,
  })

const secondStep = (challenge: string, code: string) =>
  api.app.inject({
    method: 'POST',
    url: '/api/auth/login/mfa',
    payload: { challenge, code },
    remoteAddress: ADDRESS,
  })

/** Waits (on the test clock) as long as a 429 says, or a second for anything else. */
function wait(response: { headers: Record<string, unknown> }): void {
  clock.advance(Math.max(1, Number(response.headers['retry-after'] ?? 1)) * 1000)
}

/** A code that is not the one the authenticator shows now (nor around now). */
function wrongCode(secret: string): string {
  const near = new Set(
    [-30_000, 0, 30_000].map((shift) => totpCode(secret, new Date(clock.now().getTime() + shift))),
  )
  for (let n = 0; ; n++) {
    const code = String(n).padStart(6, '0')
    if (!near.has(code)) return code
  }
}

describe(`second-factor codes from one address over a day (${testStoreName()})`, () => {
  it('reach the check no more often than wrong passwords would', async (t) => {
    const owner = await api.person('mfa-guess')
    const setup = (await api.call('POST', '/api/me/totp', owner.token)).json<TotpSetup>()
    const confirmed = await api.call('POST', '/api/me/totp/confirm', owner.token, {
      code: totpCode(setup.secret, clock.now()),
    })
    assert.equal(confirmed.statusCode, 200, confirmed.body)

    // The same day of guessing against passwords: how many wrong ones reach the check.
    const other = await api.account('password-guess')
    const dayEnds = clock.now().getTime() + DAY_MS
    let passwordsChecked = 0
    while (clock.now().getTime() < dayEnds) {
      const response = await login(other.email, 'not-the-password-1')
      if (response.statusCode === 401) passwordsChecked += 1
      else assert.equal(response.statusCode, 429, response.body)
      wait(response)
    }

    const codesDayEnds = clock.now().getTime() + DAY_MS
    let codesChecked = 0
    while (clock.now().getTime() < codesDayEnds) {
      const step = await login(owner.email, owner.password)
      if (step.statusCode !== 200) {
        assert.equal(step.statusCode, 429, step.body)
        wait(step)
        continue
      }
      const { challenge } = step.json<MfaRequired>().mfa
      for (let n = 0; n < 5; n++) {
        const response = await secondStep(challenge, wrongCode(setup.secret))
        if (response.statusCode === 401) {
          codesChecked += 1
          continue
        }
        assert.equal(response.statusCode, 429, response.body)
        wait(response)
        break
      }
    }
    t.diagnostic(
      `in a day: ${passwordsChecked} wrong passwords, ${codesChecked} wrong codes checked`,
    )
    assert.ok(passwordsChecked >= 20, `${passwordsChecked} wrong passwords were checked in a day`)
    assert.ok(
      codesChecked <= passwordsChecked,
      `${codesChecked} codes reached the check in a day, against ${passwordsChecked} passwords`,
    )

    // The owner, with the phone, still signs in, and that clears the failures.
    const step = await login(owner.email, owner.password)
    if (step.statusCode === 429) wait(step)
    const again = step.statusCode === 429 ? await login(owner.email, owner.password) : step
    assert.equal(again.statusCode, 200, again.body)
    const signedIn = await secondStep(
      again.json<MfaRequired>().mfa.challenge,
      totpCode(setup.secret, clock.now()),
    )
    assert.equal(signedIn.statusCode, 200, signedIn.body)
  })
})
