import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { filtersFrom, rangeInverted } from './audit-query'

const ID = '0192f3a4-5b6c-7d8e-9f01-23456789abcd'

describe('filtersFrom', () => {
  it('takes the known filters from the URL', () => {
    assert.deepEqual(
      filtersFrom(
        new URLSearchParams(
          `type=approved&account=${ID}&actor=${ID}&from=2026-11-01&to=2026-11-30`,
        ),
      ),
      { type: 'approved', account: ID, actor: ID, from: '2026-11-01', to: '2026-11-30' },
    )
  })

  it('leaves out what is not a type, an id or a day', () => {
    assert.deepEqual(
      filtersFrom(new URLSearchParams('type=nope&account=1&actor=x&from=01/11/2026&to=2026-1-3')),
      { type: undefined, account: undefined, actor: undefined, from: undefined, to: undefined },
    )
  })
})

describe('rangeInverted', () => {
  it('is true only when "Até" comes before "De"', () => {
    assert.equal(rangeInverted({ from: '2026-11-20', to: '2026-11-10' }), true)
    assert.equal(rangeInverted({ from: '2026-01-01', to: '2025-12-31' }), true)
  })

  it('accepts a single day, an ordered range and an open end', () => {
    assert.equal(rangeInverted({ from: '2026-11-10', to: '2026-11-10' }), false)
    assert.equal(rangeInverted({ from: '2026-11-10', to: '2026-11-20' }), false)
    assert.equal(rangeInverted({ from: '2026-11-10', to: undefined }), false)
    assert.equal(rangeInverted({ from: undefined, to: '2026-11-10' }), false)
  })
})
