import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { AuditPage } from '../../common/api/audit'
import { auditDetailsText } from '../../common/audit-details'
import { NAMES_AS_LABELS } from '../../common/provider-labels'
import { ADMIN, apiFixture, type ApiFixture } from '../test/api-fixture'
import { testStoreName } from '../test/test-database'

/**
 * The audit log records changes only (docs/administration.md): a call that sets what is already
 * there changes nothing and writes no event, and no event reads "de «X» para «X»" — not even one
 * of an account anonymised since, whose old names all became its pseudonym.
 */

let api: ApiFixture
let admin: string
before(async () => {
  api = await apiFixture()
  admin = await api.signIn(ADMIN.email, ADMIN.password)
})
after(() => api.close())

/** How many events of this type the log holds. */
async function countOf(type: string): Promise<number> {
  const { count } = await api.database.db
    .selectFrom('audit_events')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('type', '=', type)
    .executeTakeFirstOrThrow()
  return Number(count)
}

async function ok(method: 'POST' | 'PATCH', url: string, token: string, body: object) {
  const response = await api.call(method, url, token, body)
  assert.ok(response.statusCode < 300, `${method} ${url}: ${response.statusCode} ${response.body}`)
  return response
}

describe(`no event for a change that changed nothing (${testStoreName()})`, () => {
  it('a team saved with the values it has', async () => {
    const created = await ok('POST', '/api/teams', admin, { name: 'Time Igual', open: true })
    const { id } = created.json<{ team: { id: string } }>().team
    const before = await countOf('team_updated')
    await ok('PATCH', `/api/teams/${id}`, admin, { name: 'Time Igual', open: true })
    await ok('PATCH', `/api/teams/${id}`, admin, { description: '' })
    assert.equal(await countOf('team_updated'), before)
    await ok('PATCH', `/api/teams/${id}`, admin, { open: false })
    assert.equal(await countOf('team_updated'), before + 1, 'a real change is still recorded')
  })

  it('a role saved with the values it has', async () => {
    const body = {
      name: 'Papel Igual',
      description: 'Vê a equipe.',
      permissions: ['staff.view'],
      scope: 'all',
    }
    const created = await ok('POST', '/api/roles', admin, body)
    const { id } = created.json<{ role: { id: string } }>().role
    const before = await countOf('role_updated')
    await ok('PATCH', `/api/roles/${id}`, admin, body)
    await ok('PATCH', `/api/roles/${id}`, admin, { permissions: ['staff.view'] })
    assert.equal(await countOf('role_updated'), before)
    await ok('PATCH', `/api/roles/${id}`, admin, { scope: 'team' })
    assert.equal(await countOf('role_updated'), before + 1, 'a real change is still recorded')
  })

  it('the new-browser notice set to what it is', async () => {
    const person = await api.person('aviso-igual')
    const before = await countOf('notices_changed')
    await ok('PATCH', '/api/me/notices', person.token, { newBrowser: true })
    assert.equal(await countOf('notices_changed'), before)
    await ok('PATCH', '/api/me/notices', person.token, { newBrowser: false })
    await ok('PATCH', '/api/me/notices', person.token, { newBrowser: false })
    assert.equal(await countOf('notices_changed'), before + 1)
  })

  it('an anonymised account’s renames keep their kind, not "de «pseudônimo» para «pseudônimo»"', async () => {
    const person = await api.person('anon-nome', { name: 'Quitéria Primeira' })
    await ok('PATCH', '/api/me', person.token, { name: 'Quitéria Segunda' })
    await ok('POST', `/api/staff/${person.id}/anonymise`, admin, {})
    const page = await api.get(`/api/audit?account=${person.id}&type=name_changed`, admin)
    const [renamed, ...more] = page.json<AuditPage>().events
    assert.ok(renamed, 'the rename is still in the log')
    assert.equal(more.length, 0)
    assert.deepEqual(renamed.details, {})
    assert.equal(auditDetailsText('name_changed', renamed.details, NAMES_AS_LABELS), '')
  })
})
