import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { compareNames } from '../../../common/name-order'
import type { StaffList } from '../../../common/api/staff'
import { ADMIN, apiFixture, type ApiFixture } from '../../test/api-fixture'
import { testStoreName } from '../../test/test-database'

/**
 * "Nome (A–Z)" in Portuguese order, by the database on both engines, across page boundaries:
 * names written by every way a name gets in (registration, invitation, an admin's correction, the
 * person's own) carry their sort keys (db/name-columns.ts).
 */

let api: ApiFixture
let adminToken: string
before(async () => {
  api = await apiFixture()
  adminToken = await api.signIn(ADMIN.email, ADMIN.password)
})
after(() => api.close())

const DOMAIN = 'ordem.example.com'

/** Every page of the list of DOMAIN's accounts in this order, pages of three, names only. */
async function allPages(sort: 'name' | '-name'): Promise<string[]> {
  const names: string[] = []
  for (let page = 1; ; page += 1) {
    const url = `/api/staff?q=${DOMAIN}&sort=${sort}&pageSize=3&page=${page}`
    const response = await api.call('GET', url, adminToken)
    assert.equal(response.statusCode, 200, response.body)
    const list = response.json<StaffList>()
    names.push(...list.items.map((item) => item.name))
    if (page * list.pageSize >= list.total) return names
  }
}

describe(`staff names in Portuguese order (${testStoreName()})`, () => {
  it('sorts Álvaro, Ana, Éder, João, José, Úrsula, Yasmin so, either way, over pages', async () => {
    const direct = ['Yasmin', 'José', 'Ana', 'Ana Luísa', 'Analu', 'Carla', 'ana']
    for (const [index, name] of direct.entries()) {
      await api.addAccount({ email: `p${index}@${DOMAIN}`, password: 'senha-da-ordem-1', name })
    }
    // A registration, an invitation, and names corrected by an admin and by their owner.
    const registered = await api.post('/api/auth/register', {
      name: 'Éder',
      email: `eder@${DOMAIN}`,
      password: 'senha-do-eder-1',
    })
    assert.equal(registered.statusCode, 202)
    const invited = await api.call('POST', '/api/staff/invitations', adminToken, {
      name: 'Álvaro',
      email: `alvaro@${DOMAIN}`,
      role: 'staff',
    })
    assert.equal(invited.statusCode, 201, invited.body)
    const byAdmin = await api.addAccount({
      email: `zeca@${DOMAIN}`,
      password: 'senha-da-ordem-1',
      name: 'Zeca',
    })
    const renamed = await api.call('PATCH', `/api/staff/${byAdmin}`, adminToken, {
      name: 'Úrsula',
    })
    assert.equal(renamed.statusCode, 200, renamed.body)
    await api.addAccount({ email: `self@${DOMAIN}`, password: 'senha-da-ordem-1', name: 'Zuleica' })
    const own = await api.signIn(`self@${DOMAIN}`, 'senha-da-ordem-1')
    assert.equal((await api.call('PATCH', '/api/me', own, { name: 'João' })).statusCode, 200)

    const expected = [
      'Álvaro',
      'Ana', // "Ana" and "ana" share a key: the name's bytes break the tie, the same on both
      'ana',
      'Ana Luísa',
      'Analu',
      'Carla',
      'Éder',
      'João',
      'José',
      'Úrsula',
      'Yasmin',
    ]
    assert.deepEqual(await allPages('name'), expected)
    assert.deepEqual(await allPages('-name'), [...expected].reverse())
    // The same order as the browser's collator, apart from the tie it orders by case itself.
    const browser = [...expected].sort(compareNames)
    assert.deepEqual(
      browser.filter((name) => name.toLowerCase() !== 'ana'),
      expected.filter((name) => name.toLowerCase() !== 'ana'),
    )
  })
})
