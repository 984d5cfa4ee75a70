import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { parseRecoveryCodesLeft } from './recovery-codes-left'

describe('the recovery codes left, as kept in the tab', () => {
  it('reads a count of codes', () => {
    for (const [raw, count] of [
      ['0', 0],
      ['3', 3],
      ['10', 10],
    ] as const) {
      assert.equal(parseRecoveryCodesLeft(raw), count)
    }
  })

  it('ignores anything else: nothing is said rather than a wrong count', () => {
    for (const raw of [null, '', '-1', '1.5', ' 2', '2 ', 'NaN', '100', '1e1', 'dez']) {
      assert.equal(parseRecoveryCodesLeft(raw), null, String(raw))
    }
  })
})
