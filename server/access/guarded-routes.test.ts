import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { ADMIN, apiFixture, type ApiFixture } from '../test/api-fixture'
import { testStoreName } from '../test/test-database'

/**
 * signedInRoutes (authenticate.ts) guards the staff, audit and dashboard routes alike: a session,
 * an admin's where the scope is admins only, and answers no cache keeps.
 */
let api: ApiFixture
let admin: string
let staff: string
before(async () => {
  api = await apiFixture()
  admin = await api.signIn(ADMIN.email, ADMIN.password)
  await api.addAccount({ email: 'equipe-guard@example.com', password: 'senha-da-equipe-1' })
  staff = await api.signIn('equipe-guard@example.com', 'senha-da-equipe-1')
})
after(() => api.close())

describe(`routes for the signed-in (${testStoreName()})`, () => {
  for (const [url, adminsOnly] of [
    ['/api/staff', true],
    ['/api/audit', true],
    ['/api/dashboard/me', false],
  ] as const) {
    it(`${url}: no session 401, ${adminsOnly ? 'staff 403, ' : ''}and never cached`, async () => {
      const anonymous = await api.get(url)
      assert.equal(anonymous.statusCode, 401)
      assert.equal(anonymous.headers['www-authenticate'], 'Bearer')
      const asStaff = await api.get(url, staff)
      assert.equal(asStaff.statusCode, adminsOnly ? 403 : 200, asStaff.body)
      const asAdmin = await api.get(url, admin)
      assert.equal(asAdmin.statusCode, 200, asAdmin.body)
      for (const answer of [asStaff, asAdmin]) {
        assert.equal(answer.headers['cache-control'], 'no-store')
      }
    })
  }
})
