import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { etagMatches } from './etag-matches'

describe('etagMatches (If-None-Match, weak comparison)', () => {
  const etag = '"abc123"'
  const cases: [string, boolean][] = [
    ['"abc123"', true],
    ['W/"abc123"', true],
    ['"x", "abc123"', true],
    ['"x",W/"abc123" , "y"', true],
    ['*', true],
    ['"abc"', false],
    ['abc123', false],
    ['"ABC123"', false],
    ['', false],
    [',,,', false],
    ['W/', false],
    ['"abc123', false],
  ]
  for (const [header, expected] of cases) {
    it(`${JSON.stringify(header)} ${expected ? 'matches' : 'does not match'}`, () => {
      assert.equal(etagMatches(header, etag), expected)
    })
  }

  it('a weak current tag is compared the same way', () => {
    assert.equal(etagMatches('"abc123"', 'W/"abc123"'), true)
  })
})
