import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { apiFixture, type ApiFixture } from '../test/api-fixture'

/** A path without `#`: a page for a browser, the JSON error for everyone else. */

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,*/*;q=0.8'

let api: ApiFixture
before(async () => {
  api = await apiFixture()
})
after(() => api.close())

describe('a path the panel does not have', () => {
  it('is a small pt-BR page with a link to the panel for a browser, status 404, with the security headers', async () => {
    const response = await api.app.inject({ url: '/nao-existe', headers: { accept: BROWSER } })
    assert.equal(response.statusCode, 404)
    assert.match(response.headers['content-type'] as string, /^text\/html; charset=utf-8/)
    assert.match(response.body, /<html lang="pt-BR">/)
    assert.match(response.body, /<h1>Página não encontrada<\/h1>/)
    assert.match(response.body, /<a href="\/#\/">Ir para o Painel<\/a>/)
    assert.ok(response.headers['content-security-policy'], 'the page has its CSP')
    assert.doesNotMatch(response.body, /<script|<style|style=/)
  })

  it('stays the JSON error under /api, for fetch and for API clients', async () => {
    for (const [url, accept] of [
      ['/api/nao-existe', BROWSER],
      ['/nao-existe', '*/*'],
      ['/nao-existe', 'application/json'],
      ['/nao-existe', undefined],
      ['/assets/missing.js', '*/*'],
    ] as const) {
      const response = await api.app.inject({ url, headers: accept ? { accept } : {} })
      assert.equal(response.statusCode, 404, url)
      assert.equal(response.json<{ error: { code: string } }>().error.code, 'not_found', url)
    }
  })
})
