import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { parseThemeValue, readThemeParam, urlWithoutThemeParam } from './theme-param'

describe('parseThemeValue', () => {
  it('accepts the three modes, in any ASCII case', () => {
    assert.equal(parseThemeValue('dark'), 'dark')
    assert.equal(parseThemeValue('light'), 'light')
    assert.equal(parseThemeValue('auto'), 'auto')
    assert.equal(parseThemeValue('DARK'), 'dark')
    assert.equal(parseThemeValue('Light'), 'light')
  })

  const rejected = [
    '',
    ' ',
    'dark ',
    ' dark',
    'dark blue',
    'dark-x',
    'dark<x>',
    '<script>alert(1)</script>',
    '\u0000',
    'dark\u0000',
    'escuro',
    'dárk',
    'тёмный',
    'ｄａｒｋ',
    'x'.repeat(10_000),
  ]
  for (const value of rejected) {
    it(`rejects ${JSON.stringify(value.slice(0, 30))}`, () => {
      assert.equal(parseThemeValue(value), null)
    })
  }
})

describe('readThemeParam', () => {
  it('reads the parameter before the hash', () => {
    assert.deepEqual(readThemeParam('?theme=dark', '#/login'), { present: true, mode: 'dark' })
  })
  it('reads the parameter inside the hash', () => {
    assert.deepEqual(readThemeParam('', '#/login?theme=dark'), { present: true, mode: 'dark' })
    assert.deepEqual(readThemeParam('', '#/login?redirect=%2Fperfil&theme=auto'), {
      present: true,
      mode: 'auto',
    })
  })
  it('decodes the value before judging it', () => {
    assert.deepEqual(readThemeParam('?theme=dark%20blue', ''), { present: true, mode: null })
    assert.deepEqual(readThemeParam('?theme=%00', ''), { present: true, mode: null })
    assert.deepEqual(readThemeParam('?theme=%E0%A4%A', ''), { present: true, mode: null })
  })
  it('ignores two parameters, even when they agree', () => {
    assert.deepEqual(readThemeParam('?theme=dark&theme=light', ''), { present: true, mode: null })
    assert.deepEqual(readThemeParam('?theme=dark', '#/login?theme=dark'), {
      present: true,
      mode: null,
    })
  })
  it('reports no parameter', () => {
    assert.deepEqual(readThemeParam('', '#/login'), { present: false, mode: null })
    assert.deepEqual(readThemeParam('?themes=dark', '#/login?x=theme'), {
      present: false,
      mode: null,
    })
  })
})

describe('urlWithoutThemeParam', () => {
  it('takes the parameter out of both places and keeps the rest', () => {
    assert.equal(
      urlWithoutThemeParam({ pathname: '/', search: '?theme=dark', hash: '#/login' }),
      '/#/login',
    )
    assert.equal(
      urlWithoutThemeParam({
        pathname: '/',
        search: '?a=1&theme=dark',
        hash: '#/login?redirect=%2Fperfil&theme=dark',
      }),
      '/?a=1#/login?redirect=%2Fperfil',
    )
    assert.equal(urlWithoutThemeParam({ pathname: '/', search: '', hash: '' }), '/')
  })
})
