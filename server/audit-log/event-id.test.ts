import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { normalizeAccountId } from '../../common/account-id'
import { newEventId } from './event-id'

describe('audit event ids', () => {
  it('are plain lower-case UUIDs of version 7 that carry their millisecond', () => {
    const id = newEventId(Date.UTC(2026, 10, 22, 12))
    assert.equal(normalizeAccountId(id), id)
    assert.equal(id[14], '7')
    assert.match(id[19]!, /[89ab]/)
    assert.equal(parseInt(id.replaceAll('-', '').slice(0, 12), 16), Date.UTC(2026, 10, 22, 12))
  })

  it('sort in the order they were made, within one millisecond and across many', () => {
    const now = Date.UTC(2026, 10, 22, 13)
    // 5000 ids in one millisecond overflow the counter; the order must still hold.
    const ids = Array.from({ length: 5000 }, () => newEventId(now))
    ids.push(newEventId(now + 1), newEventId(now + 1), newEventId(now + 2))
    assert.deepEqual([...ids].sort(), ids)
    assert.equal(new Set(ids).size, ids.length)
  })

  it('keep their order when the clock steps back', () => {
    const first = newEventId(Date.UTC(2026, 10, 22, 14))
    const second = newEventId(Date.UTC(2026, 10, 22, 13))
    assert.ok(second > first)
  })
})
