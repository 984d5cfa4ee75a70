import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import { readCallbackQuery } from './callback-query'

const state = 'A'.repeat(43)

describe('readCallbackQuery', () => {
  it('a code answer: only code, state and iss go on', () => {
    const query = readCallbackQuery(
      `?code=abc.DEF-123&state=${state}&iss=https%3A%2F%2Fidp.example&session_state=x&foo=bar`,
    )
    assert.equal(query.kind, 'code')
    assert.ok(query.kind === 'code')
    assert.equal(query.state, state)
    assert.equal(
      query.params.toString(),
      `code=abc.DEF-123&state=${state}&iss=https%3A%2F%2Fidp.example`,
    )
  })

  it('an error answer: cancelled only for access_denied; the state kept when well formed', () => {
    assert.deepEqual(readCallbackQuery(`error=access_denied&state=${state}`), {
      kind: 'error',
      state,
      cancelled: true,
    })
    assert.deepEqual(readCallbackQuery('error=server_error&state=short'), {
      kind: 'error',
      state: null,
      cancelled: false,
    })
  })

  it('refuses repeated, missing, oversized or unprintable parameters', () => {
    for (const raw of [
      '',
      'code=abc',
      `state=${state}`,
      `code=a&code=b&state=${state}`,
      `code=a&state=${state}&state=${state}`,
      `code=a&state=${state.slice(1)}`,
      `code=a%00b&state=${state}`,
      `code=${'a'.repeat(3000)}&state=${state}`,
      `code=a&state=${state}&iss=${'%0A'}`,
      'error=a%0Ab',
      `error=x&error=y`,
      'x'.repeat(9000),
    ]) {
      assert.deepEqual(readCallbackQuery(raw), { kind: 'malformed' }, raw.slice(0, 80))
    }
  })

  it('whatever the query, it answers one of its three kinds and never throws', () => {
    const piece = fc.oneof(
      fc.constantFrom(
        'code',
        'state',
        'iss',
        'error',
        'error_description',
        '__proto__',
        'constructor',
      ),
      fc.string(),
      fc.string({ unit: 'binary' }),
    )
    const value = fc.oneof(
      fc.constant(state),
      fc.string(),
      fc.string({ unit: 'binary' }),
      fc.constant('access_denied'),
    )
    const query = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 10_000 }),
      fc
        .array(fc.tuple(piece, value), { maxLength: 8 })
        .map((pairs) =>
          pairs.map(([key, v]) => `${encodeURIComponent(key)}=${encodeURIComponent(v)}`).join('&'),
        ),
      fc
        .array(fc.tuple(piece, value), { maxLength: 8 })
        .map((pairs) => pairs.map(([k, v]) => `${k}=${v}`).join('&')),
    )
    fc.assert(
      fc.property(query, (raw) => {
        const read = readCallbackQuery(raw)
        assert.ok(['code', 'error', 'malformed'].includes(read.kind))
        if (read.kind === 'code') {
          assert.match(read.state, /^[A-Za-z0-9_-]{43}$/)
          const keys = [...read.params.keys()]
          assert.ok(keys.every((key) => ['code', 'state', 'iss'].includes(key)))
          assert.match(read.params.get('code') ?? '', /^[\x20-\x7e]{1,2048}$/)
        }
        if (read.kind === 'error' && read.state !== null)
          assert.match(read.state, /^[A-Za-z0-9_-]{43}$/)
      }),
      { numRuns: 2000 },
    )
  })
})
