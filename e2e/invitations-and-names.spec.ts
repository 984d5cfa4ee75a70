import type { Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { apiSignIn, createStaff, uniqueEmail } from './support/accounts'
import { mailsTo, waitForMail } from './support/mailbox'
import { expectRoute, signInWithForm } from './support/pages'
import { e2e } from './support/test-env'

/** Issue 34 §7 (an invitation is not an active account) and §8 (names can be corrected). */

const INVITATION_LINK = /https?:\/\/\S+#\/recuperar-senha\?token=[A-Za-z0-9_-]{43}&convite=1/

function linkIn(text: string): string {
  const link = INVITATION_LINK.exec(text)
  expect(link, text).not.toBeNull()
  return new URL(link![0]).hash.replace(/^/, '/')
}

/** Opens a mailed link in the page and sets a password there. */
async function setPasswordFrom(page: Page, link: string, password: string) {
  await page.goto(link)
  await expect(page.getByRole('heading', { name: 'Criar sua senha' })).toBeVisible()
  await page.getByLabel('Nova senha', { exact: true }).fill(password)
  await page.getByLabel('Confirmar nova senha').fill(password)
  await page.getByRole('button', { name: 'Criar senha' }).click()
}

test.describe('as an admin', () => {
  test.use({ signedInAs: 'admin' })

  test('an invitation is pending, with its expiry, until a new one is sent and used', async ({
    page,
    browser,
  }) => {
    test.slow()
    const email = uniqueEmail('reconvite')
    await page.goto('/#/equipe')
    await page.getByRole('button', { name: 'Convidar pessoa' }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByLabel('Nome').fill('Rita Reconvidada')
    await dialog.getByLabel('E-mail').fill(email)
    await dialog.getByLabel('Papel').selectOption({ label: 'Equipe' })
    await dialog.getByRole('button', { name: 'Enviar convite' }).click()
    await expect(page.getByText(`Convite enviado para ${email}.`)).toBeVisible()
    const first = linkIn((await waitForMail(email)).text)

    // Equipe, filtered to invitations: Rita is there, pending, with when her link expires.
    await page.getByLabel('Situação').selectOption({ label: 'Convite pendente' })
    await page.getByLabel('Buscar por nome ou e-mail').fill(email)
    await expect(page.getByText('1 conta', { exact: true })).toBeVisible()
    // The status filter itself tells her apart: among the active accounts she is not found.
    await page.getByLabel('Situação').selectOption({ label: 'Ativa' })
    await expect(page.getByText('Nenhuma conta encontrada com estes filtros.')).toBeVisible()
    await page.getByLabel('Situação').selectOption({ label: 'Convite pendente' })
    await expect(page.getByText('1 conta', { exact: true })).toBeVisible()
    const row = page.getByRole('row', { name: /Rita Reconvidada/ })
    await expect(row.getByText('Convite pendente')).toBeVisible()
    await expect(row.getByText(/^expira em \d{1,2} de /)).toBeVisible()
    await expect(row.getByText('Ativa', { exact: true })).toHaveCount(0)
    // Nothing offered to her may promise a password she does not have.
    await expect(row.getByRole('button', { name: 'Reativar Rita Reconvidada' })).toHaveCount(0)

    await row.getByRole('button', { name: 'Reenviar convite Rita Reconvidada' }).click()
    const confirm = page.getByRole('dialog', { name: 'Reenviar o convite para Rita Reconvidada?' })
    await expect(confirm).toContainText('Os links enviados antes deixam de valer.')
    await confirm.getByRole('button', { name: 'Reenviar convite', exact: true }).click()
    await expect(confirm).toHaveCount(0)
    await expect(page.getByText('Novo convite enviado para Rita Reconvidada.')).toBeVisible()
    const second = linkIn((await waitForMail(email, 1)).text)
    expect(second).not.toBe(first)
    expect(await mailsTo(email)).toHaveLength(2)

    const context = await browser.newContext({ storageState: { cookies: [], origins: [] } })
    const invited = await context.newPage()
    // The first mail's link no longer opens anything.
    await invited.goto(first)
    await expect(invited.getByRole('heading', { name: 'Link inválido ou expirado' })).toBeVisible()
    await setPasswordFrom(invited, second, 'senha-da-rita-1')
    await expect(invited.getByRole('heading', { name: 'Senha criada' })).toBeVisible()
    await invited.goto('/#/login')
    await signInWithForm(invited, { email, password: 'senha-da-rita-1' })
    await expectRoute(invited, '/dashboard')
    await context.close()

    // In now: an active account like any other.
    await page.goto(`/#/equipe?q=${encodeURIComponent(email)}`)
    const now = page.getByRole('row', { name: /Rita Reconvidada/ })
    await expect(now.getByText('Ativa', { exact: true })).toBeVisible()
    await expect(now.getByText('Convite pendente')).toHaveCount(0)
  })

  test('an admin corrects a name on the account page; the breadcrumb names the person', async ({
    page,
    api,
  }) => {
    const person = await createStaff(api, { name: 'Mrcos Digitado', label: 'nome' })
    await page.goto(`/#/equipe/${person.id}`)
    const breadcrumb = page.getByRole('navigation', { name: 'Você está em' })
    await expect(breadcrumb).toHaveText(/Início\s*\/?\s*Equipe\s*\/?\s*Mrcos Digitado/)
    await expect(breadcrumb.getByRole('link', { name: 'Equipe' })).toBeVisible()

    await page.getByRole('button', { name: 'Editar o nome de Mrcos Digitado' }).click()
    const field = page.getByRole('textbox', { name: 'Nome', exact: true })
    await expect(field).toBeFocused()
    await field.fill('   ')
    await page.getByRole('button', { name: 'Salvar', exact: true }).click()
    await expect(page.getByText('Informe seu nome.')).toBeVisible()
    await field.fill('Marcos Digitado')
    await page.getByRole('button', { name: 'Salvar', exact: true }).click()

    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Marcos Digitado')
    await expect(breadcrumb).toHaveText(/Início\s*\/?\s*Equipe\s*\/?\s*Marcos Digitado/)
    await expect(
      page.getByRole('button', { name: 'Editar o nome de Marcos Digitado' }),
    ).toBeFocused()
    await page.reload()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Marcos Digitado')
    // The history shows the change, before and after.
    await expect(page.getByText('Nome alterado').first()).toBeVisible()
    const token = await apiSignIn(api, e2e.admin.email, e2e.admin.password)
    const audit = await api.get(`/api/audit?account=${person.id}&type=name_changed`, {
      headers: { authorization: `Bearer ${token}` },
    })
    expect(await audit.text()).toContain('Mrcos Digitado')
  })
})

test.describe('as a staff member', () => {
  test.use({ signedInAs: 'staff' })

  test('a person corrects their own name in Minha conta and the header shows it', async ({
    page,
    account,
  }) => {
    await page.goto('/#/perfil')
    const userMenu = page.getByRole('button', { name: 'Menu do usuário' })
    await expect(userMenu).toHaveText('AT')
    await page.getByRole('button', { name: 'Editar seu nome' }).click()
    const field = page.getByRole('textbox', { name: 'Nome', exact: true })
    await expect(field).toHaveValue(account!.name)
    // Escape cancels, leaving the name as it was.
    await field.fill('Outro Nome')
    await field.press('Escape')
    await expect(field).toHaveCount(0)
    await expect(page.getByRole('button', { name: 'Editar seu nome' })).toBeFocused()

    await page.getByRole('button', { name: 'Editar seu nome' }).click()
    await field.fill('x'.repeat(101))
    await page.getByRole('button', { name: 'Salvar', exact: true }).click()
    await expect(page.getByText('O nome deve ter no máximo 100 caracteres.')).toBeVisible()
    await field.fill('Beatriz Corrigida')
    await page.getByRole('button', { name: 'Salvar', exact: true }).click()
    await expect(field).toHaveCount(0)
    await expect(
      page.getByRole('main').getByText('Beatriz Corrigida', { exact: true }),
    ).toBeVisible()

    // The header's initials and menu follow without a reload.
    await expect(userMenu).toHaveText('BC')
    await userMenu.click()
    await expect(page.getByText('Conectado como')).toBeVisible()
    await expect(page.getByTitle('Beatriz Corrigida')).toBeVisible()
  })
})
