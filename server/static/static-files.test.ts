import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { after, before, describe, it } from 'node:test'
import { rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import type { FastifyInstance } from 'fastify'
import { createFixtureDist, type FixtureDist } from '../test/fixture-dist'
import { listenOnFreePort, rawGet, testApp } from '../test/helpers'

let dist: FixtureDist
let app: FastifyInstance

before(async () => {
  dist = await createFixtureDist()
  ;({ app } = await testApp(dist.distDir))
})
after(async () => {
  await app.close()
  await dist.cleanup()
})

describe('the page', () => {
  for (const url of ['/', '/index.html']) {
    it(`${url} is index.html, revalidated on every load`, async () => {
      const response = await app.inject({ url })
      assert.equal(response.statusCode, 200)
      assert.equal(response.headers['content-type'], 'text/html; charset=utf-8')
      assert.equal(response.headers['cache-control'], 'no-cache')
      assert.match(String(response.headers.etag), /^"[\w-]+"$/)
      assert.equal(response.headers.vary, 'accept-encoding')
      assert.equal(response.body, dist.indexHtml)
    })
  }

  it('is sent brotli-compressed from its .br sibling when the browser accepts br', async () => {
    const response = await app.inject({
      url: '/',
      headers: { 'accept-encoding': 'gzip, deflate, br, zstd' },
    })
    assert.equal(response.headers['content-encoding'], 'br')
    assert.equal(response.headers['cache-control'], 'no-cache')
    assert.equal(brotliDecompressSync(response.rawPayload).toString(), dist.indexHtml)
  })

  it('answers 304 to a revalidation with the same ETag', async () => {
    const first = await app.inject({ url: '/', headers: { 'accept-encoding': 'br' } })
    const again = await app.inject({
      url: '/',
      headers: { 'accept-encoding': 'br', 'if-none-match': String(first.headers.etag) },
    })
    assert.equal(again.statusCode, 304)
    assert.equal(again.body, '')
    assert.equal(again.headers['cache-control'], 'no-cache')
  })
})

describe("the page's Content-Security-Policy", () => {
  // As a browser computes it: SHA-256 of the <style> element's text, UTF-8, base64.
  const inlineStyle = () => /<style>(.*?)<\/style>/.exec(dist.indexHtml)?.[1] ?? ''
  const expectedHash = () =>
    `'sha256-${createHash('sha256').update(Buffer.from(inlineStyle(), 'utf8')).digest('base64')}'`
  const styleSources = (csp: unknown) =>
    /(?:^|;)\s*style-src ([^;]*)/.exec(String(csp))?.[1]?.split(' ') ?? []

  it("allows the page's own inline style by its hash, and nothing else inline", async () => {
    assert.ok(inlineStyle().includes('Não'))
    const hash = expectedHash()
    for (const encoding of ['identity', 'br', 'gzip']) {
      const response = await app.inject({ url: '/', headers: { 'accept-encoding': encoding } })
      assert.deepEqual(styleSources(response.headers['content-security-policy']), ["'self'", hash])
    }
  })

  it('comes with a 304 too: its headers replace the cached ones', async () => {
    const first = await app.inject({ url: '/' })
    const again = await app.inject({
      url: '/',
      headers: { 'if-none-match': String(first.headers.etag) },
    })
    assert.equal(again.statusCode, 304)
    assert.deepEqual(styleSources(again.headers['content-security-policy']), [
      "'self'",
      expectedHash(),
    ])
  })

  it('is not on other answers: they have no inline style to allow', async () => {
    const response = await app.inject({ url: '/nowhere' })
    assert.deepEqual(styleSources(response.headers['content-security-policy']), ["'self'"])
  })
})

describe('hashed assets', () => {
  it('are cached for a year as immutable', async () => {
    const response = await app.inject({ url: dist.script.url })
    assert.equal(response.statusCode, 200)
    assert.equal(response.headers['cache-control'], 'public, max-age=31536000, immutable')
    assert.match(String(response.headers['content-type']), /^(application|text)\/javascript/)
    assert.equal(response.body, dist.script.body)
  })

  const encodings: [string, string | undefined][] = [
    ['br', 'br'],
    ['gzip', 'gzip'],
    ['gzip, deflate, br', 'br'],
    ['br;q=0, gzip', 'gzip'],
    ['deflate', undefined],
    ['identity', undefined],
    ['', undefined],
  ]
  for (const [acceptEncoding, expected] of encodings) {
    it(`Accept-Encoding "${acceptEncoding}" gets ${expected ?? 'the file as it is'}`, async () => {
      const response = await app.inject({
        url: dist.script.url,
        headers: { 'accept-encoding': acceptEncoding },
      })
      assert.equal(response.statusCode, 200)
      assert.equal(response.headers['content-encoding'], expected)
      assert.equal(response.headers.vary, 'accept-encoding')
      assert.equal(response.headers['cache-control'], 'public, max-age=31536000, immutable')
      const body =
        expected === 'br'
          ? brotliDecompressSync(response.rawPayload)
          : expected === 'gzip'
            ? gunzipSync(response.rawPayload)
            : response.rawPayload
      assert.equal(body.toString(), dist.script.body)
    })
  }

  it('has a different ETag per encoding, and 304 for each', async () => {
    const br = await app.inject({ url: dist.script.url, headers: { 'accept-encoding': 'br' } })
    const gz = await app.inject({ url: dist.script.url, headers: { 'accept-encoding': 'gzip' } })
    assert.notEqual(br.headers.etag, gz.headers.etag)
    for (const [encoding, etag] of [
      ['br', br.headers.etag],
      ['gzip', gz.headers.etag],
    ] as const) {
      const revalidated = await app.inject({
        url: dist.script.url,
        headers: { 'accept-encoding': encoding, 'if-none-match': String(etag) },
      })
      assert.equal(revalidated.statusCode, 304)
    }
  })

  it('sends a small file without siblings as it is', async () => {
    const response = await app.inject({
      url: dist.smallStyle.url,
      headers: { 'accept-encoding': 'br' },
    })
    assert.equal(response.statusCode, 200)
    assert.equal(response.headers['content-encoding'], undefined)
    assert.equal(response.body, dist.smallStyle.body)
  })
})

describe('revalidation', () => {
  const revalidate = (ifNoneMatch: string, acceptEncoding = 'br') =>
    app.inject({
      url: dist.script.url,
      headers: { 'accept-encoding': acceptEncoding, 'if-none-match': ifNoneMatch },
    })
  let etag: string
  before(async () => {
    const response = await app.inject({
      url: dist.script.url,
      headers: { 'accept-encoding': 'br' },
    })
    etag = String(response.headers.etag)
  })

  it('a 304 repeats the validators and caching rules, without a body or content headers', async () => {
    const response = await revalidate(etag)
    assert.equal(response.statusCode, 304)
    assert.equal(response.headers.etag, etag)
    assert.equal(response.headers['cache-control'], 'public, max-age=31536000, immutable')
    assert.equal(response.headers.vary, 'accept-encoding')
    assert.equal(response.headers['content-encoding'], undefined)
    assert.equal(response.rawPayload.length, 0)
  })

  const matching: [string, (etag: string) => string][] = [
    ['the tag in a list', (tag) => `"other", ${tag}`],
    ['the tag marked weak', (tag) => `W/${tag}`],
    ['*', () => '*'],
  ]
  for (const [what, header] of matching) {
    it(`If-None-Match with ${what} is a 304`, async () => {
      assert.equal((await revalidate(header(etag))).statusCode, 304)
    })
  }

  const notMatching: [string, (etag: string) => string][] = [
    ['another tag', () => '"other"'],
    ['the tag without its quotes', (tag) => tag.slice(1, -1)],
    ['an empty value', () => ''],
    ['garbage', () => '\u0000;;,,W/'],
  ]
  for (const [what, header] of notMatching) {
    it(`If-None-Match with ${what} gets the file in full`, async () => {
      const response = await revalidate(header(etag))
      assert.equal(response.statusCode, 200)
      assert.equal(brotliDecompressSync(response.rawPayload).toString(), dist.script.body)
    })
  }

  it('the brotli ETag does not revalidate the gzip body', async () => {
    const response = await revalidate(etag, 'gzip')
    assert.equal(response.statusCode, 200)
    assert.equal(response.headers['content-encoding'], 'gzip')
  })
})

describe('other request forms', () => {
  it('HEAD gets the headers of GET and no body', async () => {
    const get = await app.inject({ url: dist.script.url, headers: { 'accept-encoding': 'br' } })
    const head = await app.inject({
      method: 'HEAD',
      url: dist.script.url,
      headers: { 'accept-encoding': 'br' },
    })
    assert.equal(head.statusCode, 200)
    assert.equal(head.rawPayload.length, 0)
    for (const name of ['etag', 'content-type', 'content-encoding', 'cache-control', 'vary']) {
      assert.equal(head.headers[name], get.headers[name], name)
    }
    assert.equal(head.headers['content-length'], get.headers['content-length'])
  })

  it('a query string does not change the file', async () => {
    const response = await app.inject({ url: `${dist.script.url}?v=2&x=%00` })
    assert.equal(response.statusCode, 200)
    assert.equal(response.body, dist.script.body)
  })

  for (const method of ['POST', 'PUT', 'DELETE'] as const) {
    it(`${method} on a file is refused and changes nothing`, async () => {
      const response = await app.inject({ method, url: dist.script.url })
      assert.equal(response.statusCode, 404)
      const after = await app.inject({ url: dist.script.url })
      assert.equal(after.body, dist.script.body)
    })
  }
})

describe('what is not served', () => {
  const missing = [
    '/assets/missing.js',
    '/assets/',
    '/assets',
    '/dashboard',
    '/login',
    '/metafile.json',
    '/server/main.js',
    '/assets/main-ABCD1234.js.br',
    '/assets/main-ABCD1234.js.gz',
    '/assets/.hidden-IJKL9012.js',
    '/favicon.ico',
  ]
  for (const url of missing) {
    it(`${url} is a 404, never index.html`, async () => {
      const response = await app.inject({ url, headers: { 'accept-encoding': 'br' } })
      assert.equal(response.statusCode, 404)
      assert.deepEqual(response.json(), {
        error: { code: 'not_found', message: 'Recurso não encontrado.' },
      })
      assert.doesNotMatch(response.body, /<html/)
      assert.doesNotMatch(response.body, new RegExp(dist.secret))
    })
  }
})

describe('path traversal, sent byte for byte', () => {
  let port: number
  let traversalApp: FastifyInstance
  before(async () => {
    ;({ app: traversalApp } = await testApp(dist.distDir))
    port = await listenOnFreePort(traversalApp)
  })
  after(() => traversalApp.close())

  const attempts = [
    '/assets/../metafile.json',
    '/assets/../server/main.js',
    '/assets/../../secret.txt',
    '/../secret.txt',
    '/assets/%2e%2e/metafile.json',
    '/assets/%2E%2E/server/main.js',
    '/%2e%2e/secret.txt',
    '/assets/..%2fmetafile.json',
    '/assets/..%2Fserver%2Fmain.js',
    '/assets/%2e%2e%2f%2e%2e%2fsecret.txt',
    '/assets/..%5cmetafile.json',
    '/assets/..%5c..%5csecret.txt',
    '/assets/%5c..%5cmetafile.json',
    '/assets/%252e%252e/metafile.json',
    '/assets/main-ABCD1234.js%00.css',
    '/assets/%00../metafile.json',
    '/assets/..%00/metafile.json',
    '/%00',
    '/assets/.%2e/metafile.json',
    '/assets/%c0%ae%c0%ae/metafile.json',
    '//assets/../metafile.json',
    '/assets//../metafile.json',
  ]
  for (const target of attempts) {
    it(`${target} is refused with a 4xx and reads nothing outside dist/assets`, async () => {
      const response = await rawGet(port, target)
      assert.ok(response.status >= 400 && response.status < 500, `status ${response.status}`)
      assert.doesNotMatch(response.body, new RegExp(dist.secret))
      assert.doesNotMatch(response.body, /<html/)
    })
  }

  it('still serves the real file over the same socket path', async () => {
    const response = await rawGet(port, dist.script.url)
    assert.equal(response.status, 200)
  })
})

describe('development (npm run dev): files change while the server runs', () => {
  let devDist: FixtureDist
  let devApp: FastifyInstance
  before(async () => {
    devDist = await createFixtureDist()
    ;({ app: devApp } = await testApp(devDist.distDir, { devMode: true }))
  })
  after(async () => {
    await devApp.close()
    await devDist.cleanup()
  })

  it('serves a file written by a rebuild after start, and the rewritten page', async () => {
    await writeFile(join(devDist.distDir, 'assets', 'late-MNOP3456.js'), 'export {}')
    await writeFile(join(devDist.distDir, 'index.html'), '<!doctype html><p>rebuilt</p>')
    await rm(join(devDist.distDir, 'index.html.br'))
    await rm(join(devDist.distDir, 'index.html.gz'))
    const late = await devApp.inject({ url: '/assets/late-MNOP3456.js' })
    assert.equal(late.statusCode, 200)
    assert.equal(late.body, 'export {}')
    const page = await devApp.inject({ url: '/' })
    assert.equal(page.body, '<!doctype html><p>rebuilt</p>')
  })

  it('still refuses what production refuses', async () => {
    for (const url of ['/assets/missing.js', '/metafile.json', '/assets/.hidden-IJKL9012.js']) {
      assert.equal((await devApp.inject({ url })).statusCode, 404, url)
    }
  })
})
