import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { parseSessionEnd } from './session-end'

const NOW = 1_800_000_000_000

describe('parseSessionEnd', () => {
  it('reads a recent record', () => {
    const raw = JSON.stringify({ code: 'session_expired', message: 'Expirou.', at: NOW - 1000 })
    assert.deepEqual(parseSessionEnd(raw, NOW), {
      code: 'session_expired',
      message: 'Expirou.',
      at: NOW - 1000,
    })
    assert.equal(
      parseSessionEnd(JSON.stringify({ code: 'signed_out', at: NOW }), NOW)?.message,
      null,
    )
  })

  const ignored: [string, string | null][] = [
    ['nothing', null],
    ['broken JSON', '{"code":'],
    ['a string', '"signed_out"'],
    ['no time', '{"code":"signed_out"}'],
    ['a day-old record', JSON.stringify({ code: 'signed_out', at: NOW - 86_400_000 })],
    ['a record from the future', JSON.stringify({ code: 'signed_out', at: NOW + 60_000 })],
    ['a code that is not one', JSON.stringify({ code: '<b>x</b>', at: NOW })],
  ]
  for (const [what, raw] of ignored) {
    it(`ignores ${what}`, () => assert.equal(parseSessionEnd(raw, NOW), null))
  }
})
