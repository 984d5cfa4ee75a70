import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { withFilterChanges } from './filter-params'

describe('withFilterChanges', () => {
  const from = (query: string) => new URLSearchParams(query)

  it('sets and replaces filters, keeping the others', () => {
    assert.equal(
      withFilterChanges(from('status=pending&q=ana'), { role: 'admin', q: 'bia' }).toString(),
      'status=pending&q=bia&role=admin',
    )
  })

  it('removes a filter given an empty or missing value', () => {
    assert.equal(
      withFilterChanges(from('status=pending&q=ana'), { q: '' }).toString(),
      'status=pending',
    )
    assert.equal(withFilterChanges(from('type=sign_in'), { type: undefined }).toString(), '')
  })

  it('goes back to page 1 when anything but the page changes', () => {
    assert.equal(
      withFilterChanges(from('status=active&page=3'), { q: 'ana' }).toString(),
      'status=active&q=ana',
    )
    // Even a change to the same value: what was asked for is a new list.
    assert.equal(withFilterChanges(from('q=ana&page=2'), { q: 'ana' }).toString(), 'q=ana')
    // A page by its cursor too.
    assert.equal(
      withFilterChanges(from('q=ana&after=abc'), { sort: 'name' }).toString(),
      'q=ana&sort=name',
    )
    assert.equal(withFilterChanges(from('before=abc'), { q: 'bia' }).toString(), 'q=bia')
  })

  it('keeps the filters when only the page changes', () => {
    assert.equal(
      withFilterChanges(from('status=active&page=3'), { page: '4' }).toString(),
      'status=active&page=4',
    )
    assert.equal(
      withFilterChanges(from('status=active&after=abc'), {
        after: undefined,
        before: 'def',
      }).toString(),
      'status=active&before=def',
    )
  })

  it('leaves the URL it was given as it was', () => {
    const params = from('q=ana&page=2')
    withFilterChanges(params, { q: 'bia' })
    assert.equal(params.toString(), 'q=ana&page=2')
  })
})
