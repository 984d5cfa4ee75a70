import { createHash } from 'node:crypto'
import { expect, test } from './fixtures'
import { recordNetwork } from '../scripts/bench/network-recorder'

/** What a browser gets from the server on a cold load and on a revalidation. */

test('the page is index.html, revalidated on every load, with the security headers', async ({
  request,
}) => {
  const response = await request.get('/', { headers: { 'accept-encoding': 'br' } })
  expect(response.status()).toBe(200)
  const headers = response.headers()
  expect(headers['cache-control']).toBe('no-cache')
  expect(headers['content-encoding']).toBe('br')
  expect(headers.vary).toBe('accept-encoding')
  const csp = headers['content-security-policy'] ?? ''
  expect(csp).toContain("script-src 'self'")
  expect(csp).not.toContain('unsafe')
  expect(headers['content-security-policy']).toContain("object-src 'none'")
  expect(headers['content-security-policy']).toContain("frame-ancestors 'none'")
  const html = await response.text()
  expect(html).toContain('<html lang="pt-BR">')
  expect(html).toContain('<meta name="color-scheme" content="light dark"')
  // The favicon is in the page itself: no request of its own.
  expect(html).toMatch(/<link rel="icon" type="image\/svg\+xml" href="data:image\/svg\+xml,%3Csvg/)
  // The sign-in page is in the HTML: the page only names the app's scripts, which the boot script
  // fetches and runs once the form is painted (scripts/build/index-html.ts).
  expect(html).toMatch(/<meta name="painel-app" content="assets\/main-[A-Z0-9]{8}\.js assets\//)
  // One inline script, the boot script, which must run before the first paint: the CSP allows
  // exactly its text by its hash (server/http/security.ts), and a page whose script does not match
  // its header's hash would be refused it.
  const inlineScripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(([, text]) => text)
  expect(inlineScripts).toHaveLength(1)
  const hash = createHash('sha256')
    .update(inlineScripts[0] ?? '', 'utf8')
    .digest('base64')
  expect(csp).toContain(`script-src 'self' 'sha256-${hash}'`)
  const markup = html.replace(/<script>[\s\S]*?<\/script>/g, '<script></script>')
  expect(markup).not.toMatch(/<script type="module"|modulepreload/)
  // Any other script is a file, or a data block that never runs: the sign-in providers' list
  // (server/static/sign-in-providers-page.ts; this run's server has one provider).
  expect(markup).not.toMatch(/<script(?![^>]*\b(?:src=|type="application\/json"))[^>]*>[^<]/)
  expect(markup.match(/<script type="application\/json"/g)).toHaveLength(1)
})

test('every file the page names is a hashed asset, cached for a year, brotli when asked', async ({
  request,
}) => {
  const html = await (await request.get('/')).text()
  const named = [...html.matchAll(/(?:src|href|content)="(assets\/[^"]+)"/g)]
  const urls = named.flatMap((match) => (match[1] ?? '').split(' '))
  expect(urls.length).toBeGreaterThanOrEqual(3)
  for (const url of urls) {
    expect(url).toMatch(/-[A-Z0-9]{8}\.(js|css)$/)
    const response = await request.get(`/${url}`, { headers: { 'accept-encoding': 'gzip, br' } })
    expect(response.status(), url).toBe(200)
    expect(response.headers()['cache-control'], url).toBe('public, max-age=31536000, immutable')
    expect(response.headers().vary, url).toBe('accept-encoding')
  }
  // The stylesheet is always far above the 1 KB from which siblings are made.
  const stylesheet = urls.find((url) => url.endsWith('.css'))
  const response = await request.get(`/${stylesheet}`, { headers: { 'accept-encoding': 'br' } })
  expect(response.headers()['content-encoding']).toBe('br')
})

test('a missing asset is a 404, never the page', async ({ request }) => {
  const response = await request.get('/assets/missing.js')
  expect(response.status()).toBe(404)
  expect(await response.text()).not.toContain('<html')
})

test('a warm reload revalidates the page (304) and downloads no asset again', async ({
  page,
  browserName,
}) => {
  test.skip(
    browserName !== 'chromium',
    'the network record (cache hits, revalidations) is read over CDP; the headers that make it are the server tests’ (server/static/static-files.test.ts)',
  )
  const network = await recordNetwork(page, { cacheDisabled: false })
  await page.goto('/#/login')
  await expect(page.getByRole('button', { name: 'Entrar', exact: true })).toBeVisible()
  network.clear()
  await page.reload()
  await expect(page.getByRole('button', { name: 'Entrar', exact: true })).toBeVisible()
  const entries = network.records()
  expect(entries.find((entry) => entry.path === '/')?.status).toBe(304)
  const downloaded = entries.filter(
    (entry) => entry.path.startsWith('/assets/') && !entry.fromCache,
  )
  expect(downloaded).toEqual([])
})

test('a path without # shows a page in Portuguese that leads into the panel', async ({ page }) => {
  const response = await page.goto('/nao-existe')
  expect(response?.status()).toBe(404)
  await expect(page.getByRole('heading', { name: 'Página não encontrada' })).toBeVisible()
  await page.getByRole('link', { name: 'Ir para o Painel' }).click()
  await expect(page.getByRole('button', { name: 'Entrar', exact: true })).toBeVisible()
  expect(page.url()).toMatch(/\/#\/(login)?$/)
})
