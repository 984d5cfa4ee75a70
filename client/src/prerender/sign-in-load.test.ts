import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { canonicalSignInHash, hashPath, isSignInRoute, loadKind } from './sign-in-load'

const TOKEN = JSON.stringify({ token: 'abc' })

describe('isSignInRoute', () => {
  it('is the login page with or without a query', () => {
    for (const hash of ['', '#', '#/', '#/login', '#/login?redirect=%2Fperfil', '#/?theme=dark']) {
      assert.equal(isSignInRoute(hash), true, hash)
    }
  })
  it('matches like the router: trailing slash, any case', () => {
    assert.equal(isSignInRoute('#/login/'), true)
    assert.equal(isSignInRoute('#/LOGIN'), true)
  })
  it('is no other page', () => {
    for (const hash of [
      '#/register',
      '#/recuperar-senha',
      '#/404',
      '#/500',
      '#/dashboard',
      '#/login2',
      '#/login/x',
      '#//login',
    ]) {
      assert.equal(isSignInRoute(hash), false, hash)
    }
  })
})

describe('hashPath', () => {
  it('drops the query and the trailing slash', () => {
    assert.equal(hashPath('#/Equipe/?page=2'), '/equipe')
    assert.equal(hashPath('#/'), '/')
    assert.equal(hashPath(''), '')
  })
})

describe('loadKind', () => {
  it('is a sign-in without a token on the login route', () => {
    assert.equal(loadKind('#/login', null), 'sign-in')
    assert.equal(loadKind('', null), 'sign-in')
  })
  it('treats a broken or empty token_adm as no token, like the app', () => {
    for (const raw of ['', 'null', '{', '{}', '{"token":""}', '{"token":5}', '[]']) {
      assert.equal(loadKind('#/login', raw), 'sign-in', raw)
    }
  })
  it('is the app with a token, whatever the route', () => {
    assert.equal(loadKind('#/login', TOKEN), 'app')
    assert.equal(loadKind('', TOKEN), 'app')
    assert.equal(loadKind('#/dashboard', TOKEN), 'app')
  })
  it('is the app on any other route without a token', () => {
    assert.equal(loadKind('#/register', null), 'app')
    assert.equal(loadKind('#/dashboard', null), 'app')
  })
})

describe('canonicalSignInHash', () => {
  it('names /login for / and the empty hash, keeping the query', () => {
    assert.equal(canonicalSignInHash(''), '#/login')
    assert.equal(canonicalSignInHash('#'), '#/login')
    assert.equal(canonicalSignInHash('#/'), '#/login')
    assert.equal(canonicalSignInHash('#/?redirect=%2Fperfil'), '#/login?redirect=%2Fperfil')
  })
  it('leaves every other hash alone', () => {
    assert.equal(canonicalSignInHash('#/login?x=1'), '#/login?x=1')
    assert.equal(canonicalSignInHash('#/register'), '#/register')
  })
})
