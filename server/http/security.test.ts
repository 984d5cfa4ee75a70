import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { LightMyRequestResponse } from 'fastify'
import { createFixtureDist, type FixtureDist } from '../test/fixture-dist'
import {
  assetSecurityHeaders,
  inlineScriptHashes,
  inlineStyleHashes,
  securityHeaders,
} from './security'
import { testApp } from '../test/helpers'

let dist: FixtureDist
before(async () => {
  dist = await createFixtureDist()
})
after(() => dist.cleanup())

function directives(header: unknown): Map<string, string> {
  return new Map(
    String(header)
      .split(';')
      .map((part) => part.trim())
      .filter(Boolean)
      .map((part) => {
        const [name = '', ...values] = part.split(/\s+/)
        return [name, values.join(' ')] as const
      }),
  )
}

describe('inline hashes', () => {
  it('hash the text of plain <script> tags as browsers do (UTF-8), not data blocks or files', () => {
    const html =
      '<script>ã()</script><script src="/a.js"></script><script type="application/json">[1]</script>'
    // echo -n 'ã()' | openssl dgst -sha256 -binary | base64
    assert.deepEqual(inlineScriptHashes(html), [
      'sha256-IRb9xRnLHquQa4BC13cyeweFfaAMXKAZRWY42AtJscU=',
    ])
  })
})

describe('security headers', () => {
  it('send a CSP that allows only the panel’s own scripts, no plugins, no framing', async () => {
    const { app } = await testApp(dist.distDir)
    for (const url of ['/', '/healthz', '/assets/missing.js']) {
      const response = await app.inject({ url })
      const csp = directives(response.headers['content-security-policy'])
      // The page's own boot script, by its hash; nothing else inline, anywhere.
      assert.equal(
        csp.get('script-src'),
        url === '/' ? `'self' '${inlineScriptHashes(dist.indexHtml)[0]}'` : "'self'",
        url,
      )
      assert.doesNotMatch(String(response.headers['content-security-policy']), /unsafe/, url)
      assert.equal(csp.get('object-src'), "'none'", url)
      assert.equal(csp.get('frame-ancestors'), "'none'", url)
      assert.equal(csp.get('default-src'), "'self'", url)
      assert.equal(csp.has('upgrade-insecure-requests'), false, url)
      assert.equal(response.headers['strict-transport-security'], undefined, url)
      assert.equal(response.headers['x-content-type-options'], 'nosniff', url)
      assert.equal(response.headers['x-frame-options'], 'DENY', url)
      assert.equal(response.headers['referrer-policy'], 'no-referrer', url)
    }
    await app.close()
  })

  it('behind HTTPS, also upgrade insecure requests and send HSTS', async () => {
    const { app } = await testApp(dist.distDir, { https: true })
    const response = await app.inject({ url: '/' })
    const csp = directives(response.headers['content-security-policy'])
    assert.equal(csp.has('upgrade-insecure-requests'), true)
    assert.match(String(response.headers['strict-transport-security']), /max-age=31536000/)
    await app.close()
  })

  it('every answer carries every header helmet sets, a 304 and a 404 included', async () => {
    const expected = securityHeaders(false)
    assert.ok(Object.keys(expected).length >= 10)
    assert.equal(expected['cross-origin-opener-policy'], 'same-origin')
    const { app } = await testApp(dist.distDir)
    const page = await app.inject({ url: '/' })
    const revalidated = await app.inject({
      url: '/',
      headers: { 'if-none-match': String(page.headers.etag) },
    })
    assert.equal(revalidated.statusCode, 304)
    // The page's CSP also allows its own inline style and script, by hash (static-files.test.ts).
    const pageExpected = securityHeaders(false, {
      styles: inlineStyleHashes(dist.indexHtml),
      scripts: inlineScriptHashes(dist.indexHtml),
    })
    assert.notEqual(pageExpected['content-security-policy'], expected['content-security-policy'])
    const answers: [LightMyRequestResponse, Readonly<Record<string, string>>][] = [
      [page, pageExpected],
      [revalidated, pageExpected],
      [await app.inject({ url: '/assets/missing.js' }), expected],
      [await app.inject({ url: '/healthz' }), expected],
      [await app.inject({ url: '/readyz' }), expected],
    ]
    for (const [answer, headers] of answers) {
      for (const [name, value] of Object.entries(headers)) {
        assert.equal(answer.headers[name], value, `${answer.statusCode} ${name}`)
      }
    }
    await app.close()
  })

  it('a hashed asset carries the headers that apply to it, and none of the document ones', async () => {
    for (const https of [false, true]) {
      const { app } = await testApp(dist.distDir, { https })
      const full = securityHeaders(https)
      const kept = assetSecurityHeaders(https)
      assert.deepEqual(Object.keys(kept).sort(), [
        'cross-origin-resource-policy',
        'referrer-policy',
        ...(https ? ['strict-transport-security'] : []),
        'x-content-type-options',
      ])
      const script = await app.inject({ url: dist.script.url })
      assert.equal(script.statusCode, 200)
      const revalidated = await app.inject({
        url: dist.script.url,
        headers: { 'if-none-match': String(script.headers.etag) },
      })
      assert.equal(revalidated.statusCode, 304)
      for (const answer of [script, revalidated]) {
        for (const name of Object.keys(full)) {
          assert.equal(answer.headers[name], kept[name], `${answer.statusCode} ${name}`)
        }
      }
      assert.equal(script.headers['x-content-type-options'], 'nosniff')
      assert.equal(script.headers['content-security-policy'], undefined)
      await app.close()
    }
  })
})
