import type { Page } from '@playwright/test'
import type { StaffAccount } from '../common/api/staff'
import { BUILT_IN_ROLE_IDS } from '../common/permissions'
import { AUDITORS, TEAM_MANAGER } from '../server/test/sample-roles'
import { expect, test } from './fixtures'
import { adminHeaders, createStaff, uniqueEmail, type TestAccount } from './support/accounts'
import { sidebar, signInWithForm, submitRegistration } from './support/pages'
import { makeRole, makeTeam, place, uniqueName } from './support/roles-and-teams'

/** Issue 29: roles, teams and permissions, from the screens. */

async function signIn(page: Page, person: TestAccount) {
  await page.goto('/#/login')
  await signInWithForm(page, person)
  await expect(page.getByRole('heading', { name: 'Início', level: 1 })).toBeVisible()
}

/** A role's page reached as a person reaches it: Papéis, then the link to that role. */
async function openFromPapeis(page: Page, roleName: string) {
  await page.goto('/#/papeis')
  await page.getByRole('link', { name: `Abrir o papel ${roleName}` }).click()
}

/** A role name no other run uses, as long as "Gestor de equipe". */
const managerLengthName = () => `Gestor ${Math.random().toString(36).slice(2, 11).padEnd(9, 'x')}`

const MANAGER_PERMISSIONS = [
  'Ver a equipe: a lista, as contas e as sessões abertas',
  'Aprovar ou recusar cadastros',
  'Convidar pessoas e reenviar convites',
  'Desativar e reativar contas',
  'Desbloquear contas bloqueadas por tentativas',
  'Encerrar as sessões de outra pessoa',
  'Enviar um link para criar nova senha',
]

test.describe('an admin', () => {
  test.use({ signedInAs: 'admin' })

  test('creates a team and a "Gestor de equipe" role scoped to it, and gives it to someone', async ({
    page,
    api,
  }) => {
    test.slow()
    const teamName = uniqueName('Vendas')
    // As long as "Gestor de equipe": beside it there is room for one button, not two.
    const roleName = managerLengthName()
    const person = await createStaff(api, { name: 'Gil Gestor', label: 'gestor' })

    // Times: a new team, open for registration.
    await page.goto('/#/times')
    await page.getByRole('button', { name: 'Novo time' }).click()
    const dialog = page.getByRole('dialog', { name: 'Novo time' })
    await dialog.getByLabel('Nome').fill(teamName)
    await dialog.getByLabel('Aberto para cadastro').check()
    await dialog.getByRole('button', { name: 'Criar time' }).click()
    await expect(page.getByText(`O time ${teamName} foi criado.`)).toBeVisible()
    const card = page.getByRole('listitem').filter({ hasText: teamName })
    await expect(card.getByText('Aberto para cadastro')).toBeVisible()
    await expect(card.getByText('Nenhuma pessoa')).toBeVisible()

    // Papéis: the built-ins are read-only, and say why.
    await openFromPapeis(page, 'Administrador')
    await expect(page.getByText(/Papel embutido do Painel: não pode ser alterado/)).toBeVisible()
    await expect(page.getByRole('button', { name: 'Editar' })).toHaveCount(0)
    await expect(page.getByRole('button', { name: 'Excluir' })).toHaveCount(0)

    // A new role: its permissions in the matrix, scope "só o próprio time".
    await page.getByRole('link', { name: 'Voltar para Papéis' }).click()
    await page.getByRole('link', { name: 'Novo papel' }).click()
    await page.getByLabel('Nome', { exact: true }).fill(roleName)
    await page.getByRole('radio', { name: /Só o próprio time/ }).check()
    for (const permission of MANAGER_PERMISSIONS)
      await page.getByRole('checkbox', { name: permission }).check()
    await page.getByRole('button', { name: 'Criar papel' }).click()
    await expect(page.getByText(`O papel ${roleName} foi criado.`)).toBeVisible()
    await expect(page.getByRole('heading', { name: roleName, level: 1 })).toBeVisible()
    const approve = page.getByRole('row', { name: /Aprovar ou recusar cadastros/ })
    await expect(approve.getByText('Permitido', { exact: true })).toBeVisible()
    const audit = page.getByRole('row', { name: /Ver o registro de auditoria/ })
    await expect(audit.getByText('Não permitido')).toBeVisible()
    await expect(page.getByText('Ninguém tem este papel.')).toBeVisible()

    // The person's page in Equipe: role and team, saved together.
    await page.goto(`/#/equipe/${person.id}`)
    const roleTeam = page.locator('form').filter({ hasText: 'Salvar papel e time' })
    await roleTeam.getByLabel('Papel').selectOption({ label: roleName })
    await roleTeam.getByLabel('Time').selectOption({ label: teamName })
    await roleTeam.getByRole('button', { name: 'Salvar papel e time' }).click()
    await expect(page.getByText(`O papel e o time de ${person.name} foram salvos.`)).toBeVisible()
    const details = page.locator('dl').first()
    await expect(details.getByText(roleName)).toBeVisible()
    await expect(details.getByText(teamName)).toBeVisible()

    // The role's page now names its holder, a link to their page.
    await openFromPapeis(page, roleName)
    await expect(page.getByRole('link', { name: `Abrir a conta de ${person.name}` })).toBeVisible()

    // A role someone holds cannot be deleted: "Excluir" is off, and says why before any try.
    const remove = page.getByRole('button', { name: 'Excluir' })
    await expect(remove).toBeDisabled()
    await expect(remove).toHaveAccessibleDescription(
      'Para excluir este papel, dê antes outro papel à pessoa que o tem (abaixo, em “Quem tem este papel”).',
    )
  })
})

test.describe('Times', () => {
  test.use({ signedInAs: 'admin' })

  test("names a team's first five managers and counts the others", async ({ page, api }) => {
    test.slow()
    const teamName = uniqueName('Plantão')
    const team = await makeTeam(api, teamName, false)
    const role = await makeRole(api, {
      name: uniqueName(TEAM_MANAGER.name),
      permissions: ['staff.view', ...TEAM_MANAGER.permissions],
      scope: TEAM_MANAGER.scope,
    })
    const names = ['Alice', 'Bruna', 'Caio', 'Davi', 'Elisa', 'Fábio'].map(
      (first) => `${first} Plantonista`,
    )
    for (const name of names) {
      await place(api, await createStaff(api, { name, label: 'plantao' }), role, team)
    }

    await page.goto('/#/times')
    const card = page.getByRole('listitem').filter({ hasText: teamName })
    for (const name of names.slice(0, 5)) {
      await expect(card.getByRole('link', { name: `Abrir a conta de ${name}` })).toBeVisible()
    }
    await expect(card.getByRole('link', { name: `Abrir a conta de ${names[5]}` })).toHaveCount(0)
    await expect(card).toContainText(`${names.slice(0, 5).join(', ')} e mais 1 pessoa`)
    await expect(
      card.getByRole('link', { name: `6 pessoas do time ${teamName} em Equipe` }),
    ).toBeVisible()
  })
})

test.describe("a custom role's page", () => {
  test.use({ signedInAs: 'admin' })

  test('on a phone "Editar" and "Excluir" stay together, on one line', async ({ page, api }) => {
    await page.setViewportSize({ width: 390, height: 844 })
    // As long as "Gestor de equipe": beside it there is room for one button, not two.
    const roleName = managerLengthName()
    const roleId = await makeRole(api, {
      name: roleName,
      permissions: ['staff.view'],
      scope: 'team',
    })
    await page.goto(`/#/papeis/${roleId}`)
    await expect(page.getByRole('heading', { name: roleName, level: 1 })).toBeVisible()
    const edit = (await page.getByRole('button', { name: 'Editar' }).boundingBox())!
    const remove = (await page.getByRole('button', { name: 'Excluir' }).boundingBox())!
    expect(Math.abs(edit.y - remove.y), 'both on the same line').toBeLessThanOrEqual(1)
    expect(remove.x, '"Excluir" right after "Editar"').toBeGreaterThan(edit.x + edit.width)
    expect(remove.x - (edit.x + edit.width)).toBeLessThanOrEqual(16)
  })

  test('the permission groups are not named like a role: "Pessoas", not "Equipe"', async ({
    page,
    api,
  }) => {
    const roleName = uniqueName('Auditoria')
    const roleId = await makeRole(api, {
      name: roleName,
      permissions: ['audit.view'],
      scope: 'all',
    })
    await page.goto(`/#/papeis/${roleId}`)
    const matrix = page
      .locator('.card')
      .filter({ has: page.getByRole('heading', { name: 'Permissões' }) })
    await expect(matrix.getByRole('heading', { level: 3 })).toHaveText([
      'Pessoas',
      'Auditoria',
      'Administração',
    ])
    await expect(matrix.getByRole('table', { name: 'Pessoas' })).toBeVisible()
    // And in the form that edits it.
    await page.getByRole('button', { name: 'Editar' }).click()
    await expect(page.getByRole('group', { name: 'Pessoas' })).toBeVisible()
    await expect(page.getByRole('group', { name: 'Equipe', exact: true })).toHaveCount(0)
  })
})

test.describe('Times at 1280 px', () => {
  test.use({ signedInAs: 'admin' })

  test('"Aberto para cadastro" sits in the same place on every card, short name or long', async ({
    page,
    api,
  }) => {
    await page.setViewportSize({ width: 1280, height: 800 })
    // A name short enough to leave room beside it, and one that fills its line.
    const short = `T${Math.random().toString(36).slice(2, 8)}`
    const long = uniqueName('Atendimento ao cliente')
    await makeTeam(api, short)
    await makeTeam(api, long)
    await page.goto('/#/times')
    const offsets = []
    for (const name of [short, long]) {
      const card = page.getByRole('listitem').filter({ hasText: name })
      const badge = card.getByText('Aberto para cadastro', { exact: true })
      await expect(badge).toBeVisible()
      const heading = (await card.getByRole('heading', { name }).boundingBox())!
      const box = (await badge.boundingBox())!
      offsets.push({
        name,
        left: Math.round(box.x - heading.x),
        below: box.y >= heading.y + heading.height - 1,
      })
    }
    expect(offsets.map(({ left, below }) => ({ left, below }))).toEqual([
      { left: 0, below: true },
      { left: 0, below: true },
    ])
  })
})

test.describe('an admin, on Times', () => {
  test.use({ signedInAs: 'admin' })

  test('renames a team, then deletes it: its member keeps the account, with no team', async ({
    page,
    api,
  }) => {
    const teamName = uniqueName('Compras')
    const renamed = uniqueName('Suprimentos')
    const teamId = await makeTeam(api, teamName, false)
    const member = await createStaff(api, { name: 'Mara Membro', label: 'membro' })
    await place(api, member, BUILT_IN_ROLE_IDS.staff, teamId)

    await page.goto('/#/times')
    await page.getByRole('button', { name: `Editar o time ${teamName}` }).click()
    const dialog = page.getByRole('dialog', { name: `Editar o time ${teamName}` })
    await dialog.getByLabel('Nome').fill(renamed)
    await dialog.getByRole('button', { name: 'Salvar' }).click()
    await expect(page.getByText(`O time ${renamed} foi salvo.`)).toBeVisible()
    await expect(
      page.getByRole('link', { name: `1 pessoa do time ${renamed} em Equipe` }),
    ).toBeVisible()

    await page.getByRole('button', { name: `Excluir o time ${renamed}` }).click()
    const confirm = page.getByRole('dialog', { name: `Excluir o time ${renamed}?` })
    await expect(confirm).toContainText('As pessoas dele continuam com suas contas e seus papéis')
    await confirm.getByRole('button', { name: 'Excluir' }).click()
    await expect(page.getByText(`O time ${renamed} foi excluído.`)).toBeVisible()
    await expect(page.getByRole('button', { name: `Editar o time ${renamed}` })).toHaveCount(0)

    // The member is still there, active, in no team.
    const answer = await api.get(`/api/staff/${member.id}`, { headers: await adminHeaders(api) })
    expect(answer.status()).toBe(200)
    const { user } = (await answer.json()) as StaffAccount
    expect([user.status, user.teamId]).toEqual(['active', null])

    // Auditoria: the deletion began with the team's one person, then the team went.
    await page.goto('/#/auditoria?type=team_deletion_started')
    await expect(page.getByText(`«${renamed}», 1 pessoa(s) saindo do time`)).toBeVisible()
    await page.goto('/#/auditoria?type=team_deleted')
    await expect(page.getByText(`«${renamed}», 1 pessoa(s) ficaram sem time`)).toBeVisible()
  })
})

test('a team manager approves a registration to their team, sees no one else and only their actions', async ({
  page,
  api,
  browser,
}) => {
  test.slow()
  const teamName = uniqueName('Suporte')
  const teamId = await makeTeam(api, teamName)
  const otherTeamId = await makeTeam(api, uniqueName('Financeiro'))
  const roleId = await makeRole(api, {
    name: uniqueName(TEAM_MANAGER.name),
    permissions: ['staff.view', ...TEAM_MANAGER.permissions],
    scope: TEAM_MANAGER.scope,
  })
  const manager = await createStaff(api, { name: 'Marta Gestora', label: 'marta' })
  await place(api, manager, roleId, teamId)
  const outsider = await createStaff(api, { name: 'Otto de Fora', label: 'otto' })
  await place(api, outsider, BUILT_IN_ROLE_IDS.staff, otherTeamId)

  // Someone asks for an account naming the manager's team, on the registration page.
  const visitor = await browser.newContext({ storageState: { cookies: [], origins: [] } })
  const form = await visitor.newPage()
  const newcomer = { name: 'Nina Nova', email: uniqueEmail('nina'), password: 'senha-da-nina-1' }
  await form.goto('/#/register')
  await form.getByLabel('Time (opcional)').selectOption({ label: teamName })
  await submitRegistration(form, newcomer)
  // The team's managers may approve it too, and the page says so.
  await expect(form.getByRole('status')).toContainText(
    `Um administrador ou a gestão do time «${teamName}» precisa aprovar o acesso`,
  )
  await visitor.close()

  await signIn(page, manager)
  const nav = sidebar(page)
  await expect(nav.getByRole('link', { name: /^Equipe/ })).toBeVisible()
  for (const screen of ['Auditoria', 'Papéis', 'Times'])
    await expect(nav.getByRole('link', { name: screen })).toHaveCount(0)

  // The registration waits for them; they approve it.
  await page.goto(`/#/equipe?q=${encodeURIComponent(newcomer.email)}`)
  await expect(page.getByText('1 conta', { exact: true })).toBeVisible({ timeout: 15_000 })
  await page.getByRole('button', { name: `Aprovar ${newcomer.name}` }).click()
  await page.getByRole('dialog').getByRole('button', { name: 'Aprovar' }).click()
  await expect(page.getByText(`O cadastro de ${newcomer.name} foi aprovado.`)).toBeVisible()

  // Someone of another team is not there, by search or by address.
  await page.goto(`/#/equipe?q=${encodeURIComponent(outsider.email)}`)
  await expect(page.getByText('Nenhuma conta encontrada com estes filtros.')).toBeVisible()
  await page.goto(`/#/equipe/${outsider.id}`)
  await expect(page.getByText('Esta conta não existe (ou o cadastro foi recusado).')).toBeVisible()

  // On a person of their team: their role's actions, not the others'.
  await page.goto(`/#/equipe?q=${encodeURIComponent(newcomer.email)}`)
  await expect(page.getByRole('button', { name: `Desativar ${newcomer.name}` })).toBeVisible()
  await page.getByRole('button', { name: `Ações para ${newcomer.name}` }).click()
  await expect(page.getByRole('button', { name: 'Enviar link de nova senha' })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Desativar segundo fator' })).toHaveCount(0)
  await expect(page.getByRole('button', { name: /papel de administrador/ })).toHaveCount(0)
  await page.keyboard.press('Escape')
  // No Time filter: their role reaches their own team only.
  await expect(page.getByRole('search').getByLabel('Time')).toHaveCount(0)

  // Minha conta names their role and team.
  await page.goto('/#/perfil')
  const card = page
    .locator('.card')
    .filter({ has: page.getByRole('heading', { name: 'Papel e time' }) })
  await expect(card.getByText(teamName)).toBeVisible()
  await expect(card.getByText('Só o próprio time')).toBeVisible()
})

test('an "Auditoria" role exports the log and changes nothing', async ({ page, api }) => {
  test.slow()
  const roleId = await makeRole(api, { ...AUDITORS, name: uniqueName(AUDITORS.name) })
  const auditor = await createStaff(api, { name: 'Ana Auditora', label: 'auditora' })
  await place(api, auditor, roleId)

  await signIn(page, auditor)
  const nav = sidebar(page)
  await expect(nav.getByRole('link', { name: 'Auditoria' })).toBeVisible()
  for (const screen of [/^Equipe/, /^Papéis/, /^Times/])
    await expect(nav.getByRole('link', { name: screen })).toHaveCount(0)

  await nav.getByRole('link', { name: 'Auditoria' }).click()
  const download = page.waitForEvent('download')
  await page.getByRole('button', { name: 'Exportar CSV' }).click()
  const file = await download
  expect(file.suggestedFilename()).toMatch(/\.csv$/)

  // Equipe, Papéis and Times, opened by address: the no-permission notice, nothing of the screen.
  for (const [path, title] of [
    ['/#/equipe', 'Equipe'],
    ['/#/papeis', 'Papéis'],
    ['/#/times', 'Times'],
  ] as const) {
    await page.goto(path)
    await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible()
    await expect(
      page.getByText('Sem permissão: seu papel não dá acesso a esta tela.'),
    ).toBeVisible()
  }
  await expect(page.getByRole('button', { name: 'Convidar pessoa' })).toHaveCount(0)
})

test('a team manager is offered no action on an Administrador of their team, and is told why', async ({
  page,
  api,
}) => {
  test.slow()
  const teamId = await makeTeam(api, uniqueName('Atendimento'), false)
  const roleId = await makeRole(api, {
    name: uniqueName(TEAM_MANAGER.name),
    permissions: ['staff.view', ...TEAM_MANAGER.permissions, 'staff.roles'],
    scope: TEAM_MANAGER.scope,
  })
  const manager = await createStaff(api, { name: 'Rita Gestora', label: 'rita' })
  await place(api, manager, roleId, teamId)
  // The team's Administrador: their role holds every permission, the manager's does not.
  const chief = await createStaff(api, { name: 'Caio Chefe', label: 'caio', role: 'admin' })
  await place(api, chief, BUILT_IN_ROLE_IDS.admin, teamId)
  const member = await createStaff(api, { name: 'Mel Membro', label: 'mel' })
  await place(api, member, BUILT_IN_ROLE_IDS.staff, teamId)
  const why = 'Sem ações: o papel desta pessoa tem permissões que o seu não tem.'

  await signIn(page, manager)
  // 1280 px: the table, one row per person of the team.
  // Their team is theirs alone: the list is the three of them.
  await page.goto('/#/equipe')
  const row = (person: TestAccount) => page.getByRole('row').filter({ hasText: person.email })
  await expect(row(member).getByRole('button', { name: `Desativar ${member.name}` })).toBeVisible()
  await expect(
    row(member).getByRole('checkbox', { name: `Selecionar ${member.name}` }),
  ).toBeVisible()
  await expect(row(member).getByText(why)).toHaveCount(0)
  await expect(row(chief).getByText(why)).toBeVisible()
  await expect(row(chief).getByRole('button')).toHaveCount(0)
  await expect(row(chief).getByRole('checkbox')).toHaveCount(0)

  // 390 px: the cards say the same.
  await page.setViewportSize({ width: 390, height: 844 })
  const card = (person: TestAccount) => page.getByRole('listitem').filter({ hasText: person.email })
  await expect(card(chief).getByText(why)).toBeVisible()
  await expect(card(chief).getByRole('button')).toHaveCount(0)
  await expect(card(chief).getByRole('checkbox')).toHaveCount(0)
  await expect(card(member).getByRole('button', { name: `Desativar ${member.name}` })).toBeVisible()
  await card(member)
    .getByRole('button', { name: `Ações para ${member.name}` })
    .click()
  await expect(page.getByRole('button', { name: 'Encerrar sessões' })).toBeVisible()
  await page.keyboard.press('Escape')
  // "Selecionar todos desta página" takes the member, never the Administrador.
  await page.getByLabel('Selecionar todos desta página').check()
  await expect(page.getByText('1 pessoa selecionada')).toBeVisible()

  // The Administrador's page: the line where the actions go; no name, role or team to change.
  await page.setViewportSize({ width: 1280, height: 800 })
  await page.goto(`/#/equipe/${chief.id}`)
  await expect(page.getByRole('heading', { name: chief.name, level: 1 })).toBeVisible()
  await expect(page.getByText(why)).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Papel e time' })).toHaveCount(0)
  await expect(page.getByRole('button', { name: `Editar o nome de ${chief.name}` })).toHaveCount(0)
  await expect(page.getByRole('button', { name: /^Desativar/ })).toHaveCount(0)
  await expect(page.getByRole('button', { name: `Ações para ${chief.name}` })).toHaveCount(0)
  // Nor a link to a provider (the e2e server runs with one): staff.roles, but not over them.
  await expect(page.getByRole('button', { name: /^Enviar link para vincular/ })).toHaveCount(0)
  // The member's page: all of them.
  await page.goto(`/#/equipe/${member.id}`)
  await expect(page.getByRole('button', { name: `Desativar ${member.name}` })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Papel e time' })).toBeVisible()
  await expect(page.getByRole('button', { name: `Editar o nome de ${member.name}` })).toBeVisible()
  await expect(page.getByRole('button', { name: /^Enviar link para vincular/ })).toBeVisible()
  await expect(page.getByText(why)).toHaveCount(0)
})
