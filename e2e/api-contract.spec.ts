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
