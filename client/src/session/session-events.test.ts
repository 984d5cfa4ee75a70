import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { reopenAfterMs, takeEvents } from './session-events'

describe('takeEvents', () => {
  it('reads whole events, leaves comment lines out, and keeps the start of the next', () => {
    const { events, rest } = takeEvents(
      ': open\n\n: \n\nevent: ended\ndata: {"error":{"code":"session_revoked"}}\n\nevent: en',
    )
    assert.deepEqual(events, [{ name: 'ended', data: '{"error":{"code":"session_revoked"}}' }])
    assert.equal(rest, 'event: en')
  })

  it('an event cut between two chunks is read once it is whole', () => {
    const first = takeEvents('event: ended\nda')
    assert.deepEqual(first.events, [])
    const second = takeEvents(`${first.rest}ta: {}\n\n`)
    assert.deepEqual(second.events, [{ name: 'ended', data: '{}' }])
    assert.equal(second.rest, '')
  })

  it('reads CRLF line ends, several data lines, and an event without a name as "message"', () => {
    const { events } = takeEvents('data: a\r\ndata: b\r\n\r\nevent:x\ndata:y\n\n')
    assert.deepEqual(events, [
      { name: 'message', data: 'a\nb' },
      { name: 'x', data: 'y' },
    ])
  })
})

describe('reopenAfterMs', () => {
  it('waits a second after a stream that ended without news, doubling after failures, at most 30 s', () => {
    assert.deepEqual(
      [0, 1, 2, 3, 4, 5, 10].map((failures) => reopenAfterMs(failures, 0)),
      [1000, 2000, 4000, 8000, 16_000, 30_000, 30_000],
    )
  })

  it('adds up to a fifth at random, so that the browsers of one replica do not come back at once', () => {
    assert.equal(reopenAfterMs(0, 0.5), 1100)
    assert.equal(reopenAfterMs(10, 0.999), 35_994)
  })
})
