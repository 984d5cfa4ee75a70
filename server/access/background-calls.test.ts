import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { ErrorBody } from '../http/errors'
import { ADMIN, apiFixture, type ApiFixture } from '../test/api-fixture'
import { TestClock } from '../test/test-clock'
import { testStoreName } from '../test/test-database'

/**
 * The sidebar asks for the pending registrations every minute, marked `X-Painel-Background: 1`.
 * Such a call is not the person using the panel: it is answered, but it must not keep an idle
 * session open, or a panel left in a tab would never end by inactivity.
 */
const clock = new TestClock()
let api: ApiFixture
before(async () => {
  api = await apiFixture({
    authRateLimit: 1_000_000,
    sessionIdleSeconds: 30 * 60,
    clock: clock.now,
  })
})
after(() => api.close())

const poll = (token: string, background: boolean) =>
  api.app.inject({
    method: 'GET',
    url: '/api/staff?status=pending&pageSize=1',
    headers: {
      authorization: `Bearer ${token}`,
      ...(background ? { 'x-painel-background': '1' } : {}),
    },
  })

async function lastSeen(token: string): Promise<number> {
  const response = await api.get('/api/me/sessions', token)
  const [session] = response.json<{ sessions: { lastSeenAt: string }[] }>().sessions
  return Date.parse(session!.lastSeenAt)
}

describe(`Background calls and the idle timeout (${testStoreName()})`, () => {
  it('answers a call marked X-Painel-Background: 1 without sliding the idle end', async () => {
    const token = await api.signIn(ADMIN.email, ADMIN.password)
    for (let minute = 1; minute <= 29; minute += 1) {
      clock.advanceMinutes(1)
      const answer = await poll(token, true)
      assert.equal(answer.statusCode, 200, answer.body)
    }
    // The timeout and its minute of write slack (common/session-idle.ts) after the sign-in.
    clock.advanceMinutes(2.5)
    const ended = await poll(token, true)
    assert.equal(ended.statusCode, 401, 'thirty-odd minutes of polling alone are idle minutes')
    assert.equal(ended.json<ErrorBody>().error.code, 'session_idle')
  })

  it('still slides it for the same call made by the person (no header, or another value)', async () => {
    const token = await api.signIn(ADMIN.email, ADMIN.password)
    clock.advanceMinutes(20)
    assert.equal((await poll(token, false)).statusCode, 200)
    const slid = await lastSeen(token)
    assert.equal(slid, clock.now().getTime(), 'a call without the header is use')
    clock.advanceMinutes(20)
    const other = await api.app.inject({
      method: 'GET',
      url: '/api/staff?status=pending&pageSize=1',
      headers: { authorization: `Bearer ${token}`, 'x-painel-background': '0' },
    })
    assert.equal(other.statusCode, 200, 'only "1" marks a background call')
    clock.advanceMinutes(20)
    assert.equal((await poll(token, true)).statusCode, 200, 'slid twice: still open at 60 min')
  })
})
