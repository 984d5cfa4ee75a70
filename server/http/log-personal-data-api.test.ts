import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { StaffList } from '../../common/api/staff'
import { ADMIN, apiFixture, bearer, type ApiFixture } from '../test/api-fixture'
import { testStoreName } from '../test/test-database'
import { pruneSignInLimits } from '../accounts/sign-in-limits'
import { loggableAddress } from './loggable-request'

/**
 * Issue 43: the server's log keeps no personal data it does not need (docs/personal-data.md,
 * "The server's log"). An admin's search for a person's e-mail, a page of someone's account,
 * a failed sign-in with the e-mail, each from a full address and a browser: the captured log
 * names the routes and the parameters, never the e-mail, the search, the account's id, the
 * browser or the full address.
 */

const EMAIL = 'canario.registro@example.com'
const ADDRESS = '198.51.100.77'
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) Gecko/20100101 Firefox/128.0 CanarioBrowser'

let api: ApiFixture
before(async () => {
  api = await apiFixture({ authRateLimit: 1_000_000 })
})
after(() => api.close())

const fromPerson = { remoteAddress: ADDRESS, headers: { 'user-agent': BROWSER } }

describe(`the server's log (${testStoreName()})`, () => {
  it('names routes and parameter names, never their values, the browser or the full address', async () => {
    const person = await api.account('log', { name: 'Canário Registro' })
    await api.database.db
      .updateTable('accounts')
      .set({ email: EMAIL })
      .where('id', '=', person.id)
      .execute()
    const token = await api.signIn(ADMIN.email, ADMIN.password)
    const failed = await api.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: EMAIL, password: 'senha-errada-1' },
      ...fromPerson,
    })
    assert.equal(failed.statusCode, 401)
    const search = await api.app.inject({
      url: `/api/staff?q=${encodeURIComponent(EMAIL)}&status=active`,
      ...fromPerson,
      headers: { ...fromPerson.headers, ...bearer(token) },
    })
    assert.equal(search.statusCode, 200, search.body)
    assert.equal(search.json<StaffList>().items[0]?.id, person.id)
    const page = await api.app.inject({
      url: `/api/staff/${person.id}`,
      ...fromPerson,
      headers: { ...fromPerson.headers, ...bearer(token) },
    })
    assert.equal(page.statusCode, 200, page.body)
    const unmatched = await api.app.inject({ url: `/api/nada/${EMAIL}?email=${EMAIL}` })
    assert.equal(unmatched.statusCode, 404)

    const lines = api.logLines()
    const completed = lines.filter((line) => line.msg === 'request completed')
    const urls = completed.map((line) => line.url)
    assert.ok(urls.includes('/api/auth/login'), JSON.stringify(urls))
    assert.ok(urls.includes('/api/staff?q&status'), JSON.stringify(urls))
    assert.ok(urls.includes('/api/staff/:id'), JSON.stringify(urls))
    assert.ok(urls.includes('/api/*?email'), JSON.stringify(urls))
    const fromThem = completed.filter((line) => line.remoteAddress === '198.51.100.0/24')
    assert.equal(fromThem.length, 3, 'the network of each of their requests, not the address')

    const everything = JSON.stringify(lines)
    for (const personal of [
      EMAIL,
      encodeURIComponent(EMAIL),
      'canario',
      'Can%C3%A1rio',
      'Canário',
      person.id,
      ADDRESS,
      'CanarioBrowser',
      'Firefox',
    ]) {
      assert.ok(!everything.includes(personal), `the log holds ${personal}`)
    }
  })

  it('keeps a failed sign-in’s counts (e-mail, address) until their window ends, a day at most; housekeeping drops them', async () => {
    const email = 'canario.contado@example.com'
    const at = new Date()
    const failed = await api.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password: 'senha-errada-1' },
      ...fromPerson,
    })
    assert.equal(failed.statusCode, 401)
    const counted = () =>
      api.database.db
        .selectFrom('sign_in_limits')
        .select(['key', 'window_ends_at'])
        .where((eb) => eb.or([eb('key', 'like', `%${email}%`), eb('key', 'like', `%${ADDRESS}%`)]))
        .execute()
    const rows = await counted()
    assert.ok(rows.length >= 2, JSON.stringify(rows))
    for (const row of rows) {
      const hours = (new Date(row.window_ends_at).getTime() - at.getTime()) / 3_600_000
      assert.ok(hours <= 24.01, `${row.key}: ${hours} h`)
    }
    // The hourly housekeeping (server/built-in-api.ts) a day later.
    await pruneSignInLimits(api.database.db, new Date(at.getTime() + 86_400_000 + 60_000))
    assert.deepEqual(await counted(), [])
  })

  it('cuts an address to its network: IPv4 to /24, IPv6 to /48', () => {
    assert.equal(loggableAddress('203.0.113.9'), '203.0.113.0/24')
    assert.equal(loggableAddress('::ffff:203.0.113.9'), '203.0.113.0/24')
    assert.equal(loggableAddress('2001:db8:85a3::8a2e:370:7334'), '2001:db8:85a3::/48')
    assert.equal(loggableAddress('2001:0db8::1'), '2001:db8:0::/48')
    assert.equal(loggableAddress('::1'), '0:0:0::/48')
    assert.equal(loggableAddress(undefined), undefined)
    assert.equal(loggableAddress('not an address'), undefined)
  })
})
