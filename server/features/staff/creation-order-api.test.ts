import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { StaffList } from '../../../common/api/staff'
import { ADMIN, apiFixture, type ApiFixture } from '../../test/api-fixture'
import { testStoreName } from '../../test/test-database'

/**
 * Equipe in creation order, over accounts made as the server makes them: their creation time is
 * the database's own (accounts.created_at's default), not one a test chose. PostgreSQL's clock
 * has microseconds, and a page's cursor holds a time as JavaScript does, to the millisecond: the
 * next page then began with the last person of the page before (oldest first) or passed over
 * whoever was made in the same millisecond (newest first).
 */

let api: ApiFixture
let adminToken: string
const made: string[] = []
before(async () => {
  api = await apiFixture()
  adminToken = await api.signIn(ADMIN.email, ADMIN.password)
  for (let n = 0; n < 6; n += 1) made.push((await api.account('criada')).id)
})
after(() => api.close())

const list = async (query: string) => {
  const response = await api.get(`/api/staff?${query}`, adminToken)
  assert.equal(response.statusCode, 200, `${query}: ${response.body}`)
  return response.json<StaffList>()
}

/** Every page of an order, read by its `next` cursors: the ids as they came. */
async function readByCursors(sort: string): Promise<string[]> {
  const ids: string[] = []
  let page = await list(`sort=${sort}&pageSize=2`)
  for (;;) {
    ids.push(...page.items.map((item) => item.id))
    if (!page.next) return ids
    page = await list(`sort=${sort}&pageSize=2&after=${encodeURIComponent(page.next)}`)
  }
}

describe(`Equipe in creation order, the database's own times (${testStoreName()})`, () => {
  it('gives everyone once, in the order they were made, page after page', async () => {
    const oldestFirst = await readByCursors('createdAt')
    assert.equal(
      new Set(oldestFirst).size,
      oldestFirst.length,
      `no one twice: ${oldestFirst.join(', ')}`,
    )
    assert.deepEqual(
      oldestFirst.filter((id) => made.includes(id)),
      made,
    )
    const newestFirst = await readByCursors('-createdAt')
    assert.deepEqual(newestFirst, [...oldestFirst].reverse())
  })

  it('gives the page a number names the page the cursors reach', async () => {
    const byCursors = await readByCursors('createdAt')
    for (let page = 1; page <= Math.ceil(byCursors.length / 2); page += 1) {
      const numbered = await list(`sort=createdAt&pageSize=2&page=${page}`)
      assert.deepEqual(
        numbered.items.map((item) => item.id),
        byCursors.slice((page - 1) * 2, page * 2),
        `page ${page}`,
      )
    }
  })
})
