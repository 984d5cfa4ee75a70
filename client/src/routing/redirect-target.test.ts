import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { afterSignInPath, loginPathFor, safeRedirectTarget } from './redirect-target'

describe('safeRedirectTarget', () => {
  it('accepts inner paths, with their query', () => {
    assert.equal(safeRedirectTarget('/perfil'), '/perfil')
    assert.equal(safeRedirectTarget('/dashboard'), '/dashboard')
    assert.equal(safeRedirectTarget('/anything/deep?tab=2'), '/anything/deep?tab=2')
    // Percent-encoded characters stay encoded: they are part of a path inside the hash, not headers.
    assert.equal(safeRedirectTarget('/%0d%0aSet-Cookie:x'), '/%0d%0aSet-Cookie:x')
  })

  const refused = [
    '',
    'perfil',
    '//evil.example',
    '//evil.example/path',
    '/\\evil.example',
    '\\\\evil.example',
    'https://evil.example',
    'http://evil.example/perfil',
    'javascript:alert(1)',
    '/perfil\n',
    '/perfil#frag',
    '/login',
    '/',
    '/register',
    '/recuperar-senha',
    '/404',
    '/500',
    `/${'a'.repeat(600)}`,
  ]
  for (const value of refused) {
    it(`refuses ${JSON.stringify(value.slice(0, 40))}`, () => {
      assert.equal(safeRedirectTarget(value), null)
    })
  }

  it('refuses non-strings', () => {
    assert.equal(safeRedirectTarget(null), null)
    assert.equal(safeRedirectTarget(undefined), null)
  })
})

describe('afterSignInPath', () => {
  it('goes to the remembered inner path', () => {
    assert.equal(afterSignInPath('?redirect=%2Fperfil'), '/perfil')
  })
  it('goes to the dashboard without one, or with an unsafe one', () => {
    assert.equal(afterSignInPath(''), '/dashboard')
    assert.equal(afterSignInPath('?redirect=%2F%2Fevil.example'), '/dashboard')
    assert.equal(afterSignInPath('?redirect=https%3A%2F%2Fevil.example'), '/dashboard')
    assert.equal(afterSignInPath('?redirect=%2Flogin'), '/dashboard')
  })
})

describe('loginPathFor', () => {
  it('remembers the wanted inner path', () => {
    assert.equal(loginPathFor({ pathname: '/perfil', search: '' }), '/login?redirect=%2Fperfil')
    assert.equal(
      loginPathFor({ pathname: '/anything/deep', search: '?x=1' }),
      '/login?redirect=%2Fanything%2Fdeep%3Fx%3D1',
    )
  })
  it('does not bother remembering the dashboard', () => {
    assert.equal(loginPathFor({ pathname: '/dashboard', search: '' }), '/login')
  })
})
