import assert from 'node:assert/strict'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliDecompressSync } from 'node:zlib'
import { after, before, describe, it } from 'node:test'
import { contentTypeOf, loadStaticFileTable, tableBytes } from './static-file-table'

describe('loadStaticFileTable', () => {
  let distDir: string
  before(async () => {
    distDir = await mkdtemp(join(tmpdir(), 'painel-table-'))
    await mkdir(join(distDir, 'assets', 'fonts'), { recursive: true })
    await mkdir(join(distDir, 'assets', '.cache'), { recursive: true })
    await writeFile(join(distDir, 'index.html'), '<!doctype html>')
    await writeFile(join(distDir, 'index.html.br'), 'br-bytes')
    await writeFile(join(distDir, 'metafile.json'), '{}')
    await writeFile(join(distDir, 'assets', 'main-AAAA1111.js'), 'js')
    await writeFile(join(distDir, 'assets', 'main-AAAA1111.js.gz'), 'gz-bytes')
    await writeFile(join(distDir, 'assets', 'fonts', 'icons-BBBB2222.woff2'), 'font')
    await writeFile(join(distDir, 'assets', '.env'), 'secret')
    await writeFile(join(distDir, 'assets', '.cache', 'x.js'), 'secret')
  })
  after(() => rm(distDir, { recursive: true, force: true }))

  it('gives a URL to the page and to every asset, and to nothing else', async () => {
    const table = await loadStaticFileTable(distDir)
    assert.deepEqual([...table.keys()].sort(), [
      '/',
      '/assets/fonts/icons-BBBB2222.woff2',
      '/assets/main-AAAA1111.js',
      '/index.html',
    ])
    assert.equal(table.get('/'), table.get('/index.html'))
  })

  it('keeps each sibling as a representation of its file, with its own headers and ETag', async () => {
    const table = await loadStaticFileTable(distDir)
    const page = table.get('/')
    assert.ok(page?.br)
    assert.equal(page.gzip, undefined)
    assert.equal(page.br.body.toString(), 'br-bytes')
    assert.equal(page.br.headers['content-encoding'], 'br')
    assert.equal(page.identity.headers['content-encoding'], undefined)
    assert.equal(page.identity.headers['cache-control'], 'no-cache')
    assert.notEqual(page.br.etag, page.identity.etag)
    const script = table.get('/assets/main-AAAA1111.js')
    assert.equal(script?.gzip?.headers['content-type'], 'text/javascript; charset=utf-8')
    assert.equal(script?.identity.headers['cache-control'], 'public, max-age=31536000, immutable')
    assert.equal(tableBytes(table), '<!doctype html>br-bytesjsgz-bytesfont'.length)
  })

  it('serves the page as rewritten, its CSP, ETag and br sibling made from the new text', async () => {
    const plain = (await loadStaticFileTable(distDir)).get('/')
    const table = await loadStaticFileTable(distDir, {
      page: (html) => `${html}<p>novo</p>`,
      pageHeaders: (html) => ({ 'x-page-length': String(html.length) }),
    })
    const page = table.get('/')
    assert.ok(page?.br && plain)
    assert.equal(page.identity.body.toString(), '<!doctype html><p>novo</p>')
    assert.equal(
      page.identity.headers['x-page-length'],
      String('<!doctype html><p>novo</p>'.length),
    )
    assert.notEqual(page.identity.etag, plain.identity.etag)
    assert.equal(brotliDecompressSync(page.br.body).toString(), '<!doctype html><p>novo</p>')
    // A rewrite that changes nothing keeps the build's own sibling.
    const same = (await loadStaticFileTable(distDir, { page: (html) => html })).get('/')
    assert.equal(same?.br?.body.toString(), 'br-bytes')
  })

  it('is empty, not an error, before the first build', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'painel-empty-'))
    try {
      assert.equal((await loadStaticFileTable(empty)).size, 0)
    } finally {
      await rm(empty, { recursive: true, force: true })
    }
  })
})

describe('contentTypeOf', () => {
  const cases: [string, string][] = [
    ['index.html', 'text/html; charset=utf-8'],
    ['main-AAAA1111.js', 'text/javascript; charset=utf-8'],
    ['main-AAAA1111.CSS', 'text/css; charset=utf-8'],
    ['icons-BBBB2222.woff2', 'font/woff2'],
    ['logo.svg', 'image/svg+xml'],
    ['chunk.js.LEGAL.txt', 'text/plain; charset=utf-8'],
    ['unknown.xyz', 'application/octet-stream'],
    ['no-extension', 'application/octet-stream'],
  ]
  for (const [name, type] of cases) {
    it(`${name} is ${type}`, () => assert.equal(contentTypeOf(name), type))
  }
})
