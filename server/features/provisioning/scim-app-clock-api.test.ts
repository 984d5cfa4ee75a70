import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { TeamAnswer } from '../../../common/api/roles'
import { ADMIN, apiFixture, type ApiFixture } from '../../test/api-fixture'
import { TestClock } from '../../test/test-clock'
import { testStoreName } from '../../test/test-database'
import { scimClient, type ScimClient } from './scim-test-client'

/**
 * /scim/v2 on the app's clock (the context's `now`), not the machine's: the clock is moved days
 * ahead, so a time taken from the machine's shows.
 */

const DAY = 86_400_000
const clock = new TestClock()
let api: ApiFixture
let adminToken: string
let scim: ScimClient

before(async () => {
  api = await apiFixture({ authRateLimit: 1_000_000, clock: clock.now })
  clock.advance(3 * DAY)
  adminToken = await api.signIn(ADMIN.email, ADMIN.password)
  scim = await scimClient(api, adminToken)
})
after(() => api.close())

describe(`SCIM on the app's clock (${testStoreName()})`, () => {
  it("a team changed in Painel is a Group modified then: meta.lastModified is the change's time", async () => {
    const made = await api.call('POST', '/api/teams', adminToken, { name: 'Relógio' })
    assert.equal(made.statusCode, 201, made.body)
    const { id } = made.json<TeamAnswer>().team
    // Minutes later (within the session's idle time): a time the team's creation did not have.
    clock.advance(5 * 60_000)
    const changed = await api.call('PATCH', `/api/teams/${id}`, adminToken, {
      name: 'Relógio Novo',
    })
    assert.equal(changed.statusCode, 200, changed.body)
    const group = (await scim.call('GET', `/Groups/${id}`)).json<{
      displayName: string
      meta: { lastModified: string }
    }>()
    assert.equal(group.displayName, 'Relógio Novo')
    assert.equal(group.meta.lastModified, clock.now().toISOString())
  })
})
