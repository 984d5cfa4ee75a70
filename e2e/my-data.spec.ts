import { readFile } from 'node:fs/promises'
import type { MyData } from '../common/api/my-data'
import { expect, test } from './fixtures'

/** Issue 30 §3: "Meus dados" in Minha conta downloads everything held about the person. */

test.use({ signedInAs: 'staff' })

test('"Baixar meus dados" downloads a JSON file of the person’s account, sessions and audit events', async ({
  page,
  account,
}) => {
  await page.goto('/#/perfil')
  const card = page.locator('.card', { has: page.getByRole('heading', { name: 'Meus dados' }) })
  await expect(card).toContainText('Senhas, códigos e chaves secretas não vão no arquivo.')
  const downloading = page.waitForEvent('download')
  await card.getByRole('button', { name: 'Baixar meus dados' }).click()
  const download = await downloading
  expect(download.suggestedFilename()).toMatch(/^painel-meus-dados-\d{4}-\d{2}-\d{2}\.json$/)
  await expect(card.getByRole('status')).toHaveText(
    `Arquivo ${download.suggestedFilename()} baixado.`,
  )

  const data = JSON.parse(await readFile(await download.path(), 'utf8')) as MyData
  expect(data.account).toMatchObject({ name: account!.name, email: account!.email })
  expect(data.sessions.length).toBeGreaterThan(0)
  const types = data.auditEvents.map((event) => event.type)
  expect(types).toContain('data_exported')
  expect(types).toContain('approved')
  expect(JSON.stringify(data)).not.toContain(account!.password)
})
