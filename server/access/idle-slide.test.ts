import assert from 'node:assert/strict'
import { after, describe, it } from 'node:test'
import { idleWriteIntervalMs } from '../../common/session-idle'
import { apiFixture, errorOf, type ApiFixture } from '../test/api-fixture'
import { TestClock } from '../test/test-clock'
import { testStoreName } from '../test/test-database'

/**
 * SESSION_IDLE_TIMEOUT: a session used at least once in every stretch shorter than the timeout
 * never ends as idle, at every allowed setting, though the server writes its last use only once
 * per interval (common/session-idle.ts); one left alone does end.
 */

/**
 * Deterministic gaps (no flaky randomness) in (0, timeout): a short one (a use the server does
 * not write), then one just under the timeout, then one anywhere, and again.
 */
function gaps(timeoutMs: number, count: number): number[] {
  let seed = 7
  const next = () => (seed = (seed * 48_271) % 2_147_483_647) / 2_147_483_647
  return Array.from({ length: count }, (_, n) => {
    if (n % 3 === 0) return Math.min(30_000, Math.floor(timeoutMs / 4))
    return Math.max(1, Math.floor(timeoutMs * (n % 3 === 1 ? 0.999 : next())) - 1)
  })
}

async function signedInWith(idleSeconds: number, clock?: TestClock) {
  const api: ApiFixture = await apiFixture({
    authRateLimit: 1_000_000,
    sessionIdleSeconds: idleSeconds,
    sessionTtlSeconds: 30 * 86_400,
    ...(clock ? { clock: clock.now } : {}),
  })
  after(() => api.close())
  const person = await api.account('ocioso')
  return { api, token: await api.signIn(person.email, person.password) }
}

describe(`the idle end slides with use (${testStoreName()})`, () => {
  // The minimum (60 s), a setting just above it, the default (30 min) and a long one.
  for (const idleSeconds of [60, 90, 30 * 60, 12 * 3600]) {
    it(`SESSION_IDLE_TIMEOUT=${idleSeconds}s: used after every gap shorter than it, it stays open; left alone, it ends as session_idle`, async () => {
      const clock = new TestClock()
      const { api, token } = await signedInWith(idleSeconds, clock)
      const timeoutMs = idleSeconds * 1000
      for (const [n, gap] of gaps(timeoutMs, 40).entries()) {
        clock.advance(gap)
        const response = await api.call('GET', '/api/auth/me', token)
        assert.equal(response.statusCode, 200, `use ${n + 1}, ${gap} ms after the one before`)
      }
      clock.advance(timeoutMs + idleWriteIntervalMs(timeoutMs))
      const idle = await api.call('GET', '/api/auth/me', token)
      assert.equal(idle.statusCode, 401)
      assert.equal(errorOf(idle).code, 'session_idle')
    })
  }
})
