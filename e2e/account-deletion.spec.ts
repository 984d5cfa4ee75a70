import { expect, test } from './fixtures'
import { apiSignIn } from './support/accounts'
import { expectRoute } from './support/pages'
import { e2e } from './support/test-env'

/**
 * Issue 30 §4: a person asks in Minha conta for their account to be deleted; an admin sees the
 * request and anonymises the account (through the API: Equipe's screen for it is not built yet);
 * the person's session ends and their name and e-mail are gone from the staff list.
 */

test.use({ signedInAs: 'staff' })

test('a deletion requested in Minha conta, approved by an admin: the session ends, the data is gone', async ({
  page,
  api,
  account,
}) => {
  await page.goto('/#/perfil')
  const card = page.locator('.card', {
    has: page.getByRole('heading', { name: 'Excluir minha conta' }),
  })
  await card.getByLabel('Senha atual').fill('nao-e-a-senha')
  await card.getByRole('button', { name: 'Pedir a exclusão da conta' }).click()
  await expect(card.getByText('A senha atual não confere.')).toBeVisible()
  await card.getByLabel('Senha atual').fill(account!.password)
  await card.getByRole('button', { name: 'Pedir a exclusão da conta' }).click()
  await expect(card.getByRole('status')).toHaveText(
    'Pedido de exclusão enviado. Quem administra o Painel vai analisá-lo.',
  )

  const admin = {
    authorization: `Bearer ${await apiSignIn(api, e2e.admin.email, e2e.admin.password)}`,
  }
  const listed = await api.get('/api/staff/deletion-requests', { headers: admin })
  const { requests } = (await listed.json()) as { requests: { account: { id: string } }[] }
  expect(requests.map((request) => request.account.id)).toContain(account!.id)
  const anonymised = await api.post(`/api/staff/${account!.id}/anonymise`, { headers: admin })
  expect(anonymised.status()).toBe(204)

  await page.reload()
  await expectRoute(page, /^\/login/)
  const search = await api.get(`/api/staff?q=${encodeURIComponent(account!.email)}`, {
    headers: admin,
  })
  expect(((await search.json()) as { total: number }).total).toBe(0)
})
