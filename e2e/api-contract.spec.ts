import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { expect, test } from './fixtures'
import { recordApiExchanges } from './support/api-contract'

/**
 * The contract check every suite runs (fixtures.ts, apiContract) reports what it should: an
 * answer the document does not allow, and not the panel's real answers.
 */

test.describe('a made-up answer', () => {
  // This test's own answer is wrong on purpose: the automatic check would fail it.
  test.use({ checkApiContract: false })

  test('an /api answer unlike the document is reported, with the request to send again', async ({
    page,
    context,
    api,
    baseURL,
  }) => {
    const exchanges = recordApiExchanges(context, api, baseURL!)
    // Shaped like a server answer (it carries a request id) but not as the document says.
    await page.route('**/api/auth/me', (route) =>
      route.fulfill({ json: { user: 42 }, headers: { 'x-request-id': 'made-up' } }),
    )
    await page.goto('/#/login')
    await page.evaluate(() => fetch('/api/auth/me', { headers: { authorization: 'Bearer x' } }))

    const { violations } = await exchanges.check()
    expect(violations).toHaveLength(1)
    expect(violations[0]).toContain('answer /user')
    expect(violations[0]).toContain('curl -X GET "$URL/api/auth/me"')
  })
})

test('the panel’s own answers match the document', async ({ page, context, api, baseURL }) => {
  const exchanges = recordApiExchanges(context, api, baseURL!)
  await page.goto('/#/login')
  await page.getByLabel('E-mail').fill('ninguem@example.com')
  await page.getByLabel('Senha', { exact: true }).fill('senha-errada-123')
  await page.getByRole('button', { name: 'Entrar', exact: true }).click()
  await expect(page.getByRole('alert')).toBeVisible()

  // The sign-in and its 401 at least, compared and found as the document says.
  const { checked, violations } = await exchanges.check()
  expect(checked).toBeGreaterThanOrEqual(1)
  expect(violations).toEqual([])
})

test('an answer whose body never arrives does not hold the check', async ({
  page,
  context,
  api,
}) => {
  // A server of the test's own that sends an /api answer's headers and then nothing more, as a
  // reload cuts an answer of the panel's short.
  const server = createServer((request, response) => {
    if (request.url === '/api/slow') {
      response.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'slow' })
      response.write('{"half":')
      return
    }
    response.writeHead(200, { 'content-type': 'text/html' })
    const asks = request.url === '/' ? '<script>fetch("/api/slow")</script>' : ''
    response.end(`<!doctype html><title>meio</title>${asks}`)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  try {
    const origin = `http://127.0.0.1:${port}`
    const exchanges = recordApiExchanges(context, api, origin)
    const answered = page.waitForResponse(`${origin}/api/slow`)
    await page.goto(`${origin}/`)
    await answered
    // A new document cuts the answer short, as a reload does the panel's.
    await page.goto(`${origin}/depois`)
    expect(await exchanges.check()).toEqual({ checked: 0, violations: [] })
  } finally {
    server.closeAllConnections()
    server.close()
  }
})

test('an answer that comes after the page asked for a new document does not hold the check', async ({
  page,
  context,
  api,
}) => {
  // The order a reload just after a request can give: the new document is asked for first, then
  // the old page's /api answer sends its headers, and its body never ends.
  let apiAsked = () => {}
  const apiArrived = new Promise<void>((resolve) => (apiAsked = resolve))
  let nextAsked = () => {}
  const nextArrived = new Promise<void>((resolve) => (nextAsked = resolve))
  let answerApi = () => {}
  let answerNext = () => {}
  const server = createServer((request, response) => {
    if (request.url === '/api/late') {
      answerApi = () => {
        response.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'late' })
        response.write('{"half":')
      }
      apiAsked()
      return
    }
    if (request.url === '/depois') {
      answerNext = () => {
        response.writeHead(200, { 'content-type': 'text/html' })
        response.end('<!doctype html><title>depois</title>')
      }
      nextAsked()
      return
    }
    response.writeHead(200, { 'content-type': 'text/html' })
    response.end('<!doctype html><title>antes</title><script>fetch("/api/late")</script>')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  try {
    const origin = `http://127.0.0.1:${port}`
    const exchanges = recordApiExchanges(context, api, origin)
    await page.goto(`${origin}/`)
    await apiArrived
    const leaving = page.goto(`${origin}/depois`)
    await nextArrived
    const answered = page.waitForResponse(`${origin}/api/late`)
    answerApi()
    await answered
    answerNext()
    await leaving
    expect(await exchanges.check()).toEqual({ checked: 0, violations: [] })
  } finally {
    server.closeAllConnections()
    server.close()
  }
})
