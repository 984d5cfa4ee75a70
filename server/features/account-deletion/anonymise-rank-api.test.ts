import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { RoleAnswer, TeamAnswer } from '../../../common/api/roles'
import { ADMIN, apiFixture, errorOf, type ApiFixture } from '../../test/api-fixture'
import { testStoreName } from '../../test/test-database'

/**
 * Anonymising someone, refusing their deletion request and changing their e-mail hold to the caller's reach and rank like every
 * other action on a person (docs/roles-and-teams.md): a team-scoped holder of staff.delete and
 * staff.roles reaches only their team, and never someone whose role outranks theirs.
 */
describe(`anonymising and someone's e-mail, by reach and rank (${testStoreName()})`, () => {
  let api: ApiFixture
  let admin: string
  let manager: string
  let teamA: string
  let teamB: string

  const ok = async <T>(method: 'POST' | 'PATCH', url: string, body: object): Promise<T> => {
    const answer = await api.call(method, url, admin, body)
    assert.ok(answer.statusCode < 300, `${method} ${url}: ${answer.statusCode} ${answer.body}`)
    return answer.json<T>()
  }
  const inTeam = async (label: string, teamId: string, role?: 'admin') => {
    const made = await api.account(label, role ? { role } : {})
    await ok('PATCH', `/api/staff/${made.id}`, { teamId })
    return made.id
  }

  before(async () => {
    api = await apiFixture()
    admin = await api.signIn(ADMIN.email, ADMIN.password)
    teamA = (await ok<TeamAnswer>('POST', '/api/teams', { name: 'Time A' })).team.id
    teamB = (await ok<TeamAnswer>('POST', '/api/teams', { name: 'Time B' })).team.id
    const { role } = await ok<RoleAnswer>('POST', '/api/roles', {
      name: 'Gestor de dados',
      description: '',
      permissions: ['staff.view', 'staff.delete', 'staff.roles'],
      scope: 'team',
    })
    const person = await api.account('gestor-de-dados')
    await ok('PATCH', `/api/staff/${person.id}`, { roleId: role.id, teamId: teamA })
    manager = await api.signIn(person.email, person.password)
  })
  after(() => api.close())

  const actions = (id: string) =>
    [
      ['POST', `/api/staff/${id}/anonymise`, undefined],
      ['POST', `/api/staff/${id}/email`, { email: `nova-${id.slice(0, 8)}@example.com` }],
    ] as const

  it('refuses an Administrador of their own team (403 outranked): nothing changes', async () => {
    const chief = await inTeam('chefe-do-time-a', teamA, 'admin')
    for (const [method, url, body] of actions(chief)) {
      const answer = await api.call(method, url, manager, body)
      assert.equal(answer.statusCode, 403, `${url}: ${answer.body}`)
      assert.equal(errorOf(answer).code, 'outranked', url)
    }
    const row = await api.database.db
      .selectFrom('accounts')
      .select(['status', 'name'])
      .where('id', '=', chief)
      .executeTakeFirstOrThrow()
    assert.equal(row.status, 'active')
    assert.notEqual(row.name, '')
    assert.deepEqual(await api.events(chief, 'email_change_requested'), [])
  })

  it("refuses another team's open deletion request as not found, and leaves it open", async () => {
    const asker = await api.person('pede-exclusao-time-b')
    await ok('PATCH', `/api/staff/${asker.id}`, { teamId: teamB })
    const asked = await api.call('POST', '/api/me/deletion-request', asker.token, {
      password: asker.password,
    })
    assert.ok(asked.statusCode < 300, asked.body)
    const url = `/api/staff/${asker.id}/deletion-request/refuse`
    const answer = await api.call('POST', url, manager, { reason: 'Fora do meu time.' })
    assert.equal(answer.statusCode, 404, answer.body)
    const open = await api.database.db
      .selectFrom('deletion_requests')
      .select('decided_at')
      .where('account_id', '=', asker.id)
      .executeTakeFirstOrThrow()
    assert.equal(open.decided_at, null)
  })

  it("answers 404 for another team's person, and acts on their own team's", async () => {
    const theirs = await inTeam('pessoa-do-time-b', teamB)
    for (const [method, url, body] of actions(theirs)) {
      const answer = await api.call(method, url, manager, body)
      assert.equal(answer.statusCode, 404, `${url}: ${answer.body}`)
    }
    const mine = await inTeam('pessoa-do-time-a', teamA)
    for (const [method, url, body] of [...actions(mine)].reverse()) {
      const answer = await api.call(method, url, manager, body)
      assert.ok([202, 204].includes(answer.statusCode), `${url}: ${answer.body}`)
    }
  })
})
