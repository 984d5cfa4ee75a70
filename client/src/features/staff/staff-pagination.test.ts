import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { positionChanges } from './staff-pagination'

describe("Equipe's pages", () => {
  const clear = { page: undefined, after: undefined, before: undefined }

  it('goes by the cursors the answer carries', () => {
    const third = positionChanges({
      page: 3,
      pageSize: 20,
      total: 100,
      totalExact: true,
      next: 'n3',
      previous: 'p3',
    })
    assert.deepEqual(third.next, { ...clear, after: 'n3' })
    assert.deepEqual(third.previous, { ...clear, before: 'p3' })
    assert.deepEqual(third.last, { ...clear, page: 'last' })
    assert.deepEqual(third.first, clear)
    assert.equal(third.pages, 5)
    // From the second page back to the first: the first page itself, as "Primeira" shows it.
    assert.deepEqual(
      positionChanges({ page: 2, pageSize: 20, total: 100, next: 'n', previous: 'p' }).previous,
      clear,
    )
  })

  it('does not know the number of pages past the count', () => {
    const page = positionChanges({
      page: 1,
      pageSize: 20,
      total: 1000,
      totalExact: false,
      next: 'n',
      previous: null,
    })
    assert.equal(page.pages, null)
    assert.equal(page.hasNext, true)
    assert.equal(page.hasPrevious, false)
  })

  it('pages by number with a backend that answers no cursors', () => {
    const second = positionChanges({ page: 2, pageSize: 20, total: 45 })
    assert.deepEqual(second.next, { ...clear, page: '3' })
    assert.deepEqual(second.previous, clear)
    assert.deepEqual(second.last, { ...clear, page: '3' })
    assert.equal(positionChanges({ page: 3, pageSize: 20, total: 45 }).hasNext, false)
  })
})
