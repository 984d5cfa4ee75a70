import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { CurrentSession, SessionList } from '../../../common/api/me'
import { ADMIN, apiFixture, errorOf, type ApiFixture } from '../../test/api-fixture'
import { TestClock } from '../../test/test-clock'
import { testStoreName } from '../../test/test-database'

const CHROME_LINUX =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
const FIREFOX_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0'

const clock = new TestClock()
let api: ApiFixture
before(async () => {
  api = await apiFixture({
    authRateLimit: 1_000_000,
    sessionTtlSeconds: 8 * 3600,
    sessionIdleSeconds: 30 * 60,
    clock: clock.now,
  })
})
after(() => api.close())

/**
 * A session token, from a browser the session list names. (The tests make their accounts with
 * api.account(), which opens no session: the lists hold only the sessions a test opens.)
 */
const signIn = (email: string, password: string, userAgent = CHROME_LINUX) =>
  api.signIn(email, password, { 'user-agent': userAgent })

async function sessionsOf(token: string) {
  const response = await api.call('GET', '/api/me/sessions', token)
  assert.equal(response.statusCode, 200, response.body)
  return response.json<SessionList>().sessions
}

describe(`GET /api/me/sessions (${testStoreName()})`, () => {
  it('lists my open sessions, this one first and marked, with a readable browser and the address', async () => {
    const ana = await api.account('sessoes')
    const laptop = await signIn(ana.email, ana.password, CHROME_LINUX)
    const phone = await signIn(ana.email, ana.password, FIREFOX_WINDOWS)
    const sessions = await sessionsOf(phone)
    assert.equal(sessions.length, 2)
    assert.equal(sessions[0]!.current, true)
    assert.equal(sessions[0]!.userAgent, 'Firefox no Windows')
    assert.equal(sessions[1]!.current, false)
    assert.equal(sessions[1]!.userAgent, 'Chrome no Linux')
    assert.equal(sessions[0]!.ip, '127.0.0.1')
    const first = sessions[0]!
    assert.equal(first.createdAt, clock.now().toISOString())
    assert.equal(first.lastSeenAt, first.createdAt)
    // The earlier of the two ends: here the idle one, 30 minutes on.
    assert.equal(first.expiresAt, new Date(clock.now().getTime() + 31 * 60_000).toISOString())
    assert.deepEqual(
      (await sessionsOf(laptop)).map((session) => session.current),
      [true, false],
    )
  })

  it("shows nobody else's sessions, and needs a session", async () => {
    const ana = await api.account('sessoes')
    const bruno = await api.account('sessoes')
    const anaToken = await signIn(ana.email, ana.password)
    await signIn(bruno.email, bruno.password)
    assert.equal((await sessionsOf(anaToken)).length, 1)
    const none = await api.call('GET', '/api/me/sessions')
    assert.equal(none.statusCode, 401)
    assert.equal(errorOf(none).code, 'unauthenticated')
    const fake = await api.call('GET', '/api/me/sessions', 'a'.repeat(43))
    assert.equal(errorOf(fake).code, 'unauthenticated')
  })
})

describe(`DELETE /api/me/sessions/:id and /api/me/sessions (${testStoreName()})`, () => {
  it('ends one of my sessions: its next call is a 401 session_revoked, mine goes on', async () => {
    const ana = await api.account('sessoes')
    const other = await signIn(ana.email, ana.password)
    const mine = await signIn(ana.email, ana.password)
    const target = (await sessionsOf(mine)).find((session) => !session.current)!
    const ended = await api.call('DELETE', `/api/me/sessions/${target.id.toUpperCase()}`, mine)
    assert.equal(ended.statusCode, 204, ended.body)
    const afterwards = await api.call('GET', '/api/auth/me', other)
    assert.equal(afterwards.statusCode, 401)
    assert.deepEqual(errorOf(afterwards), {
      code: 'session_revoked',
      message: 'Sua sessão foi encerrada em outro lugar. Entre novamente.',
    })
    assert.equal((await api.call('GET', '/api/auth/me', mine)).statusCode, 200)
    assert.equal((await sessionsOf(mine)).length, 1)
    // Ended already: a 404, not a second event.
    assert.equal((await api.call('DELETE', `/api/me/sessions/${target.id}`, mine)).statusCode, 404)
  })

  it("cannot end someone else's session (404), nor without a session (401), nor with a bad id (400)", async () => {
    const ana = await api.account('sessoes')
    const bruno = await api.account('sessoes')
    const anaToken = await signIn(ana.email, ana.password)
    const brunoToken = await signIn(bruno.email, bruno.password)
    const brunoSession = (await sessionsOf(brunoToken))[0]!
    const refused = await api.call('DELETE', `/api/me/sessions/${brunoSession.id}`, anaToken)
    assert.equal(refused.statusCode, 404)
    assert.equal(errorOf(refused).message, 'Sessão não encontrada: ela pode já ter sido encerrada.')
    assert.equal((await api.call('GET', '/api/auth/me', brunoToken)).statusCode, 200)
    assert.equal((await api.call('DELETE', `/api/me/sessions/${brunoSession.id}`)).statusCode, 401)
    assert.equal((await api.call('DELETE', '/api/me/sessions')).statusCode, 401)
    const bad = await api.call('DELETE', '/api/me/sessions/nao-e-um-id', anaToken)
    assert.equal(bad.statusCode, 400)
    assert.equal(errorOf(bad).code, 'invalid_input')
  })

  it('"encerrar as outras" ends every session but this one, and the log says who did it', async () => {
    const ana = await api.account('sessoes')
    const others = [await signIn(ana.email, ana.password), await signIn(ana.email, ana.password)]
    const mine = await signIn(ana.email, ana.password)
    assert.equal((await api.call('DELETE', '/api/me/sessions', mine)).statusCode, 204)
    for (const token of others) {
      assert.equal(errorOf(await api.call('GET', '/api/auth/me', token)).code, 'session_revoked')
    }
    assert.equal((await api.call('GET', '/api/auth/me', mine)).statusCode, 200)
    const [event] = await api.events(ana.id, 'session_ended')
    assert.equal(event?.actor_id, ana.id)
    assert.deepEqual(JSON.parse(event.details), { sessions: 2, by: 'owner', which: 'others' })
  })
})

describe(`Session limits (${testStoreName()})`, () => {
  it('slides the idle end with use, writing at most once a minute, and ends an unused session as session_idle', async () => {
    const ana = await api.account('sessoes')
    const token = await signIn(ana.email, ana.password)
    const lastSeen = () => api.lastSeen(ana.id)
    const started = await lastSeen()
    clock.advance(30_000)
    assert.equal((await api.call('GET', '/api/auth/me', token)).statusCode, 200)
    assert.equal(await lastSeen(), started, 'not written within the minute')
    clock.advanceMinutes(29)
    assert.equal((await api.call('GET', '/api/auth/me', token)).statusCode, 200)
    assert.equal(await lastSeen(), clock.now().getTime(), 'written after a minute')
    clock.advanceMinutes(29)
    assert.equal((await api.call('GET', '/api/auth/me', token)).statusCode, 200, 'slid: still open')
    // Unused: it ends the timeout plus the write interval (a minute) after the use written.
    clock.advanceMinutes(31)
    const idle = await api.call('GET', '/api/auth/me', token)
    assert.equal(idle.statusCode, 401)
    assert.deepEqual(errorOf(idle), {
      code: 'session_idle',
      message: 'Sua sessão foi encerrada por inatividade. Entre novamente.',
    })
    assert.equal(idle.headers['www-authenticate'], 'Bearer')
  })

  it('GET /api/me/session tells the limits and POST /session/renew slides the idle end at once', async () => {
    const ana = await api.account('sessoes')
    const token = await signIn(ana.email, ana.password)
    const signedInAt = clock.now().getTime()
    clock.advance(20_000)
    const before = (await api.call('GET', '/api/me/session', token)).json<CurrentSession>()
    assert.equal(before.idleTimeoutSeconds, 1800)
    assert.equal(before.idleExpiresAt, new Date(signedInAt + 1860_000).toISOString())
    assert.equal(before.expiresAt, new Date(signedInAt + 8 * 3600_000).toISOString())
    const renewed = await api.call('POST', '/api/me/session/renew', token)
    assert.equal(renewed.statusCode, 200)
    assert.equal(
      renewed.json<CurrentSession>().idleExpiresAt,
      new Date(clock.now().getTime() + 1860_000).toISOString(),
    )
    assert.equal((await api.call('POST', '/api/me/session/renew')).statusCode, 401)
    assert.equal((await api.call('GET', '/api/me/session')).statusCode, 401)
  })

  it('ends at SESSION_TTL however busy it was: session_expired', async () => {
    const ana = await api.account('sessoes')
    const token = await signIn(ana.email, ana.password)
    for (let hour = 0; hour < 8; hour += 1) {
      clock.advanceMinutes(20)
      assert.equal((await api.call('GET', '/api/auth/me', token)).statusCode, 200)
      clock.advanceMinutes(20)
      assert.equal((await api.call('GET', '/api/auth/me', token)).statusCode, 200)
      clock.advanceMinutes(20)
      if (hour < 7) assert.equal((await api.call('GET', '/api/auth/me', token)).statusCode, 200)
    }
    assert.equal(errorOf(await api.call('GET', '/api/auth/me', token)).code, 'session_expired')
  })

  it('says when the account was disabled, the password changed elsewhere, or an admin ended it', async () => {
    const admin = await signIn(ADMIN.email, ADMIN.password)
    const ana = await api.account('sessoes')
    const disabled = await signIn(ana.email, ana.password)
    const patch = await api.call('PATCH', `/api/staff/${ana.id}`, admin, { status: 'disabled' })
    assert.equal(patch.statusCode, 200, patch.body)
    assert.deepEqual(errorOf(await api.call('GET', '/api/auth/me', disabled)), {
      code: 'session_account_disabled',
      message: 'Sua conta foi desativada por um administrador.',
    })

    const bruno = await api.account('sessoes')
    const elsewhere = await signIn(bruno.email, bruno.password)
    const here = await signIn(bruno.email, bruno.password)
    const change = await api.call('POST', '/api/auth/password', here, {
      currentPassword: bruno.password,
      newPassword: 'uma-senha-nova-do-bruno',
    })
    assert.equal(change.statusCode, 204, change.body)
    assert.equal(
      errorOf(await api.call('GET', '/api/auth/me', elsewhere)).code,
      'session_password_changed',
    )
    assert.equal((await api.call('GET', '/api/auth/me', here)).statusCode, 200)

    const carla = await api.account('sessoes')
    const carlaToken = await signIn(carla.email, carla.password)
    assert.equal((await api.call('POST', `/api/staff/${carla.id}/sign-out`, admin)).statusCode, 204)
    assert.equal(errorOf(await api.call('GET', '/api/auth/me', carlaToken)).code, 'session_revoked')

    // "Sair" is the person's own doing: the token is simply no longer known.
    const dora = await api.account('sessoes')
    const doraToken = await signIn(dora.email, dora.password)
    assert.equal((await api.call('POST', '/api/auth/logout', doraToken)).statusCode, 204)
    assert.equal(errorOf(await api.call('GET', '/api/auth/me', doraToken)).code, 'unauthenticated')
  })
})
