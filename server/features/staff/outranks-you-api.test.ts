import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { RoleAnswer, TeamAnswer } from '../../../common/api/roles'
import type { StaffAccount, StaffItem, StaffItemAnswer, StaffList } from '../../../common/api/staff'
import { ADMIN, apiFixture, errorOf, type ApiFixture } from '../../test/api-fixture'
import { SUPPORT, TEAM_MANAGER } from '../../test/sample-roles'
import { testStoreName } from '../../test/test-database'

/**
 * Equipe's `outranksYou` (common/api/staff.ts): each person of the list and of their page says
 * whether their role outranks the viewer's, by the rule the actions enforce (roles/rank.ts), so
 * the screens offer no action the server would refuse with 403 outranked.
 */
describe(`outranksYou on Equipe's people (${testStoreName()})`, () => {
  let api: ApiFixture
  let admin: string
  let manager: string
  let managerId: string
  let chief: string
  let member: string
  let helper: string
  let supportRole: string

  const ok = async <T>(method: 'POST' | 'PATCH', url: string, body: object): Promise<T> => {
    const answer = await api.call(method, url, admin, body)
    assert.ok(answer.statusCode < 300, `${method} ${url}: ${answer.statusCode} ${answer.body}`)
    return answer.json<T>()
  }
  const inTeam = async (label: string, teamId: string, fields: { roleId?: string } = {}) => {
    const made = await api.account(label, label === 'chefe' ? { role: 'admin' } : {})
    await ok('PATCH', `/api/staff/${made.id}`, { teamId, ...fields })
    return made
  }
  /** The list as `token` sees it: outranksYou by person's id. */
  const flags = async (token: string) => {
    const answer = await api.get('/api/staff?pageSize=100', token)
    assert.equal(answer.statusCode, 200, answer.body)
    const { items } = answer.json<StaffList>()
    return new Map(items.map((item: StaffItem) => [item.id, item.outranksYou]))
  }
  const pageFlag = async (id: string, token: string) => {
    const answer = await api.get(`/api/staff/${id}`, token)
    assert.equal(answer.statusCode, 200, answer.body)
    return answer.json<StaffAccount>().user.outranksYou
  }

  before(async () => {
    api = await apiFixture()
    admin = await api.signIn(ADMIN.email, ADMIN.password)
    const team = (await ok<TeamAnswer>('POST', '/api/teams', { name: 'Vendas' })).team.id
    const managers = await ok<RoleAnswer>('POST', '/api/roles', {
      ...TEAM_MANAGER,
      description: '',
    })
    // Suporte's permissions are all the manager's too: it does not outrank them, until it grows.
    supportRole = (await ok<RoleAnswer>('POST', '/api/roles', { ...SUPPORT, description: '' })).role
      .id
    const person = await inTeam('gestora', team, { roleId: managers.role.id })
    managerId = person.id
    manager = await api.signIn(person.email, person.password)
    chief = (await inTeam('chefe', team)).id
    member = (await inTeam('membro', team)).id
    helper = (await inTeam('suporte', team, { roleId: supportRole })).id
  })
  after(() => api.close())

  it("a team's manager: true on an Administrador of their team, false on Equipe and on themselves", async () => {
    const seen = await flags(manager)
    assert.equal(seen.get(chief), true)
    assert.equal(seen.get(member), false)
    assert.equal(seen.get(helper), false)
    assert.equal(seen.get(managerId), false)
    assert.equal(seen.size, 4, 'the team only')
    // The person's page says the same, by any spelling of the id.
    assert.equal(await pageFlag(chief.toUpperCase(), manager), true)
    assert.equal(await pageFlag(member, manager), false)
  })

  it('an Administrador: false on everyone, other Administradores included', async () => {
    const seen = await flags(admin)
    assert.ok(seen.size >= 5)
    assert.deepEqual([...new Set(seen.values())], [false])
    assert.equal(await pageFlag(chief, admin), false)
    const { user } = await ok<StaffItemAnswer>('PATCH', `/api/staff/${member}`, { name: 'Membra' })
    assert.equal(user.outranksYou, false)
  })

  it('agrees with the enforcement: true exactly where an action is refused as outranked', async () => {
    const seen = await flags(manager)
    for (const [id, outranksYou] of seen) {
      if (id === managerId) continue
      const answer = await api.call('POST', `/api/staff/${id}/sign-out`, manager)
      if (outranksYou) {
        assert.equal(answer.statusCode, 403, answer.body)
        assert.equal(errorOf(answer).code, 'outranked')
      } else assert.equal(answer.statusCode, 204, answer.body)
    }
    // The answer to the manager's own change carries the flag as they see it.
    const changed = await api.call('PATCH', `/api/staff/${member}`, manager, { status: 'disabled' })
    assert.equal(changed.statusCode, 200, changed.body)
    assert.equal(changed.json<StaffItemAnswer>().user.outranksYou, false)
    await api.call('PATCH', `/api/staff/${member}`, manager, { status: 'active' })
  })

  it('is read afresh: a role that gains a permission the viewer lacks outranks them at once', async () => {
    await ok('PATCH', `/api/roles/${supportRole}`, {
      permissions: [...SUPPORT.permissions, 'audit.view'],
    })
    assert.equal((await flags(manager)).get(helper), true)
    assert.equal(await pageFlag(helper, manager), true)
    const refused = await api.call('POST', `/api/staff/${helper}/unlock`, manager)
    assert.equal(errorOf(refused).code, 'outranked')
    await ok('PATCH', `/api/roles/${supportRole}`, { permissions: [...SUPPORT.permissions] })
    assert.equal((await flags(manager)).get(helper), false)
  })
})
