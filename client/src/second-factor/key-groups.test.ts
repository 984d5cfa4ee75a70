import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { keyGroups } from './key-groups'

describe('keyGroups', () => {
  it('cuts a key into groups of four', () => {
    assert.deepEqual(keyGroups('JBSWY3DPEHPK3PXP'), ['JBSW', 'Y3DP', 'EHPK', '3PXP'])
    assert.deepEqual(keyGroups('JBSWY3DPEH'), ['JBSW', 'Y3DP', 'EH'])
  })

  it('never leaves one character alone: it joins the group before it', () => {
    assert.deepEqual(keyGroups('JBSWY3DPE'), ['JBSW', 'Y3DPE'])
    assert.deepEqual(keyGroups('ABCDEFGHIJKLMNOPQ'), ['ABCD', 'EFGH', 'IJKL', 'MNOPQ'])
    assert.deepEqual(keyGroups('A'), ['A'])
    assert.deepEqual(keyGroups(''), [])
  })

  it('ignores spaces already in the key', () => {
    assert.deepEqual(keyGroups('JBSW Y3DP E'), ['JBSW', 'Y3DPE'])
  })
})
