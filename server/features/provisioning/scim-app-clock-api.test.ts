import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { TeamAnswer } from '../../../common/api/roles'
import { ADMIN, apiFixture, type ApiFixture } from '../../test/api-fixture'
import { TestClock } from '../../test/test-clock'
import { testStoreName } from '../../test/test-database'
import { GROUP_SCHEMA_URN, newUser, patch, scimClient, type ScimClient } from './scim-test-client'

/**
 * /scim/v2 on the app's clock (the context's `now`), not the machine's: the clock is moved days
 * ahead, so a time taken from the machine's shows.
 */

const DAY = 86_400_000
const clock = new TestClock()
let api: ApiFixture
let adminToken: string
let scim: ScimClient
let tokenMadeAt: string

before(async () => {
  api = await apiFixture({ authRateLimit: 1_000_000, clock: clock.now })
  clock.advance(3 * DAY)
  adminToken = await api.signIn(ADMIN.email, ADMIN.password)
  tokenMadeAt = clock.now().toISOString()
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

  it("what a directory changes is audited at the app's time, not the machine's", async () => {
    const at = async (types: string[], accountId?: string) => {
      let query = api.database.db
        .selectFrom('audit_events')
        .select(['type', 'at'])
        .where('type', 'in', types)
      if (accountId) query = query.where('account_id', '=', accountId)
      return (await query.execute()).map((event) => [event.type, new Date(event.at).toISOString()])
    }
    // The token was made in before(), the clock standing where it was moved to.
    assert.deepEqual(await at(['scim_token_created']), [['scim_token_created', tokenMadeAt]])
    clock.advance(60_000)
    const now = () => clock.now().toISOString()
    const made = await scim.call('POST', '/Users', newUser('relogio@corp.example'))
    assert.equal(made.statusCode, 201, made.body)
    const { id } = made.json<{ id: string }>()
    assert.deepEqual(await at(['provisioned'], id), [['provisioned', now()]])

    clock.advance(60_000)
    const renamed = await scim.call(
      'PATCH',
      `/Users/${id}`,
      patch({ op: 'replace', path: 'displayName', value: 'Outro Relógio' }),
    )
    assert.equal(renamed.statusCode, 200, renamed.body)
    assert.deepEqual(await at(['name_changed'], id), [['name_changed', now()]])

    clock.advance(60_000)
    const group = await scim.call('POST', '/Groups', {
      schemas: [GROUP_SCHEMA_URN],
      displayName: 'Grupo do Relógio',
      members: [{ value: id }],
    })
    assert.equal(group.statusCode, 201, group.body)
    assert.deepEqual(await at(['team_changed'], id), [['team_changed', now()]])
    assert.ok((await at(['team_created'])).some(([, time]) => time === now()))

    clock.advance(60_000)
    assert.equal((await scim.call('DELETE', `/Users/${id}`)).statusCode, 204)
    assert.deepEqual((await at(['disabled', 'deprovisioned'], id)).sort(), [
      ['deprovisioned', now()],
      ['disabled', now()],
    ])
    assert.equal(
      new Date(
        (
          await api.database.db
            .selectFrom('accounts')
            .select('updated_at')
            .where('id', '=', id)
            .executeTakeFirstOrThrow()
        ).updated_at,
      ).toISOString(),
      now(),
    )
  })
})
