import { readFile } from 'node:fs/promises'
import { pathToFileURL } from 'node:url'
import type { APIRequestContext, Page } from '@playwright/test'
import type { MyData } from '../common/api/my-data'
import { expect, test } from './fixtures'
import { apiSignIn, createStaff, uniqueEmail, type TestAccount } from './support/accounts'
import { signInWithForm } from './support/pages'
import { waitForMailAbout } from './support/mailbox'
import { e2e } from './support/test-env'
import { IPHONE_SAFARI } from './support/user-agents'

/**
 * Issue 30 §3: "Meus dados" in Minha conta downloads everything held about the person; issue 43:
 * also as a page a person reads (role and team by name, notices by subject, browsers by name,
 * local times), beside the JSON for another program.
 */

test.use({ signedInAs: 'staff' })

const myDataCard = (page: Page) =>
  page.locator('.card', { has: page.getByRole('heading', { name: 'Meus dados' }) })

async function downloadFrom(page: Page, button: string) {
  const card = myDataCard(page)
  const downloading = page.waitForEvent('download')
  await card.getByRole('button', { name: button }).click()
  const download = await downloading
  await expect(card.getByRole('status')).toHaveText(
    `Arquivo ${download.suggestedFilename()} baixado.`,
  )
  return download
}

test('"Baixar em JSON" downloads a JSON file of the person’s account, sessions and audit events', async ({
  page,
  account,
}) => {
  await page.goto('/#/perfil')
  await expect(myDataCard(page)).toContainText(
    'Senhas, códigos e chaves secretas não vão no arquivo.',
  )
  const download = await downloadFrom(page, 'Baixar em JSON')
  expect(download.suggestedFilename()).toMatch(/^painel-meus-dados-\d{4}-\d{2}-\d{2}\.json$/)

  const data = JSON.parse(await readFile(await download.path(), 'utf8')) as MyData
  expect(data.account).toMatchObject({ name: account!.name, email: account!.email })
  expect(data.sessions.length).toBeGreaterThan(0)
  const types = data.auditEvents.map((event) => event.type)
  expect(types).toContain('data_exported')
  expect(types).toContain('approved')
  expect(JSON.stringify(data)).not.toContain(account!.password)
})

test.describe('someone tried the address before the account was made', () => {
  test.use({ signedInAs: null })

  test('the copy holds that try: it is about the person’s address', async ({
    page,
    api,
    context,
  }, testInfo) => {
    const email = uniqueEmail('tentada')
    const tried = await api.post('/api/auth/login', {
      data: { email, password: 'qualquer-senha-1' },
    })
    expect(tried.status()).toBe(401)
    const person = await createStaff(api, { name: 'Tina Tentada', email })
    await page.goto('/#/login')
    await signInWithForm(page, person)
    await page.goto('/#/perfil')
    const download = await downloadFrom(page, 'Baixar em JSON')

    const data = JSON.parse(await readFile(await download.path(), 'utf8')) as MyData
    const before = data.auditEvents.filter(
      (event) => event.type === 'sign_in_failed' && event.account === null,
    )
    expect(before.map((event) => event.details.email)).toEqual([email])

    // The page to read says it in words, without where the try came from.
    const page2 = await downloadFrom(page, 'Baixar para ler (página)')
    const file = testInfo.outputPath(page2.suggestedFilename())
    await page2.saveAs(file)
    const letter = await context.newPage()
    await letter.goto(pathToFileURL(file).href)
    const events = letter.locator('section', {
      has: letter.getByRole('heading', { name: 'Registro de atividade' }),
    })
    await expect(events).toContainText(
      'as tentativas de entrar com o seu e-mail, do mais novo ao mais antigo.',
    )
    await expect(events).toContainText(`com o e-mail ${email}, que não é de nenhuma conta`)
  })
})

/** Makes the person a team's manager: a role of team scope, and the team. */
async function makeTeamManager(api: APIRequestContext, person: TestAccount) {
  const suffix = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`
  const headers = {
    authorization: `Bearer ${await apiSignIn(api, e2e.admin.email, e2e.admin.password)}`,
  }
  const team = await api.post('/api/teams', { data: { name: `Time Sul ${suffix}` }, headers })
  expect(team.status(), await team.text()).toBe(201)
  const role = await api.post('/api/roles', {
    data: {
      name: `Gerente ${suffix}`,
      description: '',
      permissions: ['staff.view'],
      scope: 'team',
    },
    headers,
  })
  expect(role.status(), await role.text()).toBe(201)
  const placed = await api.patch(`/api/staff/${person.id}`, {
    data: {
      roleId: ((await role.json()) as { role: { id: string } }).role.id,
      teamId: ((await team.json()) as { team: { id: string } }).team.id,
    },
    headers,
  })
  expect(placed.status(), await placed.text()).toBe(200)
  return { role: `Gerente ${suffix}`, team: `Time Sul ${suffix}` }
}

test.describe('the page to read', () => {
  test.use({ timezoneId: 'America/Sao_Paulo' })

  test('a team manager reads their role and team by name, notices by subject, browsers by name, in local time', async ({
    page,
    account,
    api,
    context,
  }, testInfo) => {
    const place = await makeTeamManager(api, account!)
    // The change of role mails a security notice; once sent, its subject is part of the copy.
    await waitForMailAbout(account!.email, /seu papel foi alterado/)
    // A second session, from a phone: the copy names its browser.
    const phone = await api.post('/api/auth/login', {
      data: { email: account!.email, password: account!.password },
      headers: { 'user-agent': IPHONE_SAFARI },
    })
    expect(phone.status()).toBe(200)

    await page.goto('/#/perfil')
    const download = await downloadFrom(page, 'Baixar para ler (página)')
    expect(download.suggestedFilename()).toMatch(/^painel-meus-dados-\d{4}-\d{2}-\d{2}\.html$/)

    // Opened as a person opens a downloaded file: from the disk, with no panel behind it.
    const file = testInfo.outputPath(download.suggestedFilename())
    await download.saveAs(file)
    const letter = await context.newPage()
    await letter.goto(pathToFileURL(file).href)
    await expect(letter.getByRole('heading', { level: 1 })).toHaveText('Seus dados no Painel')
    await expect(letter.getByText(`Olá, ${account!.name}.`)).toBeVisible()

    const you = letter.locator('section', {
      has: letter.getByRole('heading', { name: 'Quem você é' }),
    })
    await expect(you).toContainText(`Papel${place.role}`)
    await expect(you).toContainText(`Time${place.team}`)
    await expect(you).toContainText(account!.email)
    await expect(you).not.toContainText(/Papel\s*staff/)

    await expect(letter.getByText(/no fuso America\/Sao_Paulo/)).toBeVisible()
    const sessions = letter.locator('section', {
      has: letter.getByRole('heading', { name: 'Sessões' }),
    })
    await expect(sessions.getByRole('heading', { name: 'Safari no iPhone' })).toBeVisible()
    await expect(sessions).toContainText(/Começou em \d{1,2} de [a-z]{3}\. de \d{4}, \d{2}:\d{2}/)

    const mails = letter.locator('section', {
      has: letter.getByRole('heading', { name: 'E-mails que o Painel enviou a você' }),
    })
    await expect(
      mails.getByRole('heading', { name: 'Painel: seu papel foi alterado' }),
    ).toBeVisible()

    const events = letter.locator('section', {
      has: letter.getByRole('heading', { name: 'Registro de atividade' }),
    })
    await expect(events.getByRole('heading', { name: 'Papel alterado' })).toBeVisible()
    await expect(events.getByRole('heading', { name: 'Cópia dos dados baixada' })).toBeVisible()
    await expect(letter.locator('body')).not.toContainText(/\d{4}-\d{2}-\d{2}T\d{2}:/)
  })
})
