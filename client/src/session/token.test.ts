import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { parseToken } from './token'

describe('parseToken', () => {
  it('reads the token of a well-formed entry', () => {
    assert.equal(parseToken('{"token":"abc.def"}'), 'abc.def')
    assert.equal(parseToken('{"token":"abc","other":1}'), 'abc')
  })

  const loggedOut: [string, string | null][] = [
    ['a missing entry', null],
    ['an empty string', ''],
    ['JSON null', 'null'],
    ['an empty object', '{}'],
    ['an empty token', '{"token":""}'],
    ['a blank token', '{"token":"   "}'],
    ['broken JSON', '{"token":'],
    ['a number', '42'],
    ['a string', '"abc"'],
    ['an array', '[{"token":"abc"}]'],
    ['a numeric token', '{"token":123}'],
    ['a null token', '{"token":null}'],
    ['an object token', '{"token":{"value":"abc"}}'],
    ['true', 'true'],
  ]
  for (const [what, raw] of loggedOut) {
    it(`treats ${what} as logged out`, () => {
      assert.equal(parseToken(raw), null)
    })
  }
})
