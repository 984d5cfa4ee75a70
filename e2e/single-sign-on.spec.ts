import type { Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { createStaff, uniqueEmail } from './support/accounts'
import { authenticatorCode, withAuthenticator } from './support/authenticator'
import { SERVER_DECIDES } from './support/engine-sensitive'
import { waitForMailAbout } from './support/mailbox'
import { expectRoute, signInWithForm, signOut, tokenIn } from './support/pages'
import { e2e } from './support/test-env'

/**
 * Issue 28: signing in with the organisation's account. The panel's `corp` provider is a real
 * OpenID provider on loopback (e2e/support/oidc-provider-server.ts, started by
 * playwright.config.ts), with its own login page; any e-mail signs in there, verified.
 */

const providerButton = (page: Page) =>
  page.getByRole('link', { name: `Entrar com ${e2e.oidc.label}` })

/**
 * At the provider's own page: the e-mail, the password, "Entrar". `unverified`: the provider does
 * not vouch for the e-mail (its "E-mail não confirmado" box).
 */
async function signInAtProvider(page: Page, email: string, { unverified = false } = {}) {
  await expect(page.getByRole('heading', { name: 'Provedor de teste' })).toBeVisible()
  expect(new URL(page.url()).origin).toBe(e2e.oidc.issuer)
  await page.getByLabel('E-mail', { exact: true }).fill(email)
  await page.getByLabel('Senha').fill('qualquer-senha')
  if (unverified) await page.getByLabel('E-mail não confirmado').check()
  await page.getByRole('button', { name: 'Entrar' }).click()
}

/** From the login page: "Entrar com …", then the provider's page as `email` (signInAtProvider). */
async function signInThroughProvider(page: Page, email: string, options = { unverified: false }) {
  await page.goto('/#/login')
  await providerButton(page).click()
  await signInAtProvider(page, email, options)
}

/** The login form's button after LINK_BY_PASSWORD. */
const LINK_BUTTON = 'Entrar e vincular'
const LINK_BY_PASSWORD =
  'Já existe uma conta no painel com o e-mail que o provedor informou, mas o provedor não confirmou que o e-mail é seu. Para vincular o provedor a essa conta, entre uma vez com o e-mail e a senha dela. Depois disso, o provedor basta para entrar.'

test('a person with an account presses "Entrar com …", signs in at the provider and lands on Início', async ({
  page,
  api,
}) => {
  const person = await createStaff(api, { name: 'Rita Provedor', label: 'rita-sso' })
  await signInThroughProvider(page, person.email)
  await expect(page.getByRole('heading', { name: 'Início', level: 1 })).toBeVisible()
  await expectRoute(page, '/dashboard')
  expect(await tokenIn(page)).not.toBeNull()
  // The hand-off code was taken out of the address: nothing to replay from the history.
  expect(page.url()).not.toContain('sso=')

  // Signed out of the panel, the button signs the person in again through the link now made,
  // where they were going; the provider remembers them, so its page does not even show.
  await signOut(page)
  await page.goto('/#/login?redirect=%2Fperfil')
  await providerButton(page).click()
  await expectRoute(page, '/perfil')
  await expect(page.getByRole('heading', { name: 'Minha conta', level: 1 })).toBeVisible()

  // Minha conta lists the provider; with a password to fall back on, it can be unlinked.
  const providers = page.getByRole('list', { name: 'Provedores de identidade' })
  await expect(providers.getByText(e2e.oidc.label, { exact: true })).toBeVisible()
  await page.getByRole('button', { name: `Desvincular ${e2e.oidc.label}` }).click()
  await page.getByRole('dialog').getByRole('button', { name: 'Desvincular' }).click()
  await expect(page.getByText('Provedor desvinculado.')).toBeVisible()
  await expect(providers).toBeHidden()
})

test(
  'Equipe shows how a person signs in: password and provider',
  { tag: SERVER_DECIDES },
  async ({ page, browser, api }) => {
    const person = await createStaff(api, { name: 'Teo Dois Caminhos', label: 'teo-sso' })
    await signInThroughProvider(page, person.email)
    await expect(page.getByRole('heading', { name: 'Início', level: 1 })).toBeVisible()

    const adminContext = await browser.newContext()
    try {
      const admin = await adminContext.newPage()
      await admin.goto(`/#/login?redirect=${encodeURIComponent(`/equipe/${person.id}`)}`)
      await signInWithForm(admin, e2e.admin)
      await expect(admin.getByRole('heading', { name: person.name, level: 1 })).toBeVisible()
      await expect(
        admin.getByRole('definition').filter({ hasText: `Senha, ${e2e.oidc.label}` }),
      ).toBeVisible()
    } finally {
      await adminContext.close()
    }
  },
)

test(
  'a new person comes back from the provider pending; an admin approves; the next press lands on Início',
  { tag: SERVER_DECIDES },
  async ({ page, browser }) => {
    const email = uniqueEmail('nova-sso')
    await signInThroughProvider(page, email)
    await expectRoute(page, '/login')
    await expect(page.getByRole('status')).toHaveText(
      'Seu cadastro foi recebido e aguarda a aprovação de um administrador. Você poderá entrar assim que o cadastro for aprovado.',
    )
    expect(await tokenIn(page)).toBeNull()

    // An admin approves the registration on Equipe, in their own browser.
    const adminContext = await browser.newContext()
    try {
      const admin = await adminContext.newPage()
      await admin.goto('/#/login?redirect=%2Fequipe')
      await signInWithForm(admin, e2e.admin)
      await expectRoute(admin, '/equipe')
      await admin.getByRole('searchbox', { name: 'Buscar por nome ou e-mail' }).fill(email)
      await admin.keyboard.press('Enter')
      const row = admin.getByRole('row', { name: new RegExp(email) })
      await expect(row.getByText('Aguardando aprovação')).toBeVisible()
      await row.getByRole('button', { name: /^Aprovar / }).click()
      await admin.getByRole('dialog').getByRole('button', { name: 'Aprovar' }).click()
      await expect(row.getByText('Ativa', { exact: true })).toBeVisible()
    } finally {
      await adminContext.close()
    }

    // The person presses the button again (the provider remembers them) and is in.
    await page.goto('/#/login')
    await providerButton(page).click()
    await expect(page.getByRole('heading', { name: 'Início', level: 1 })).toBeVisible()
    await expectRoute(page, '/dashboard')
    expect(await tokenIn(page)).not.toBeNull()

    // No password of their own: neither Início nor the authenticator app's card speaks of one.
    await expect(
      page.getByText('Só a entrada no provedor de identidade protege a sua conta.'),
    ).toBeVisible()
    await page.goto('/#/perfil')
    const card = page.locator('.card').filter({
      has: page.getByRole('heading', { name: 'Verificação em duas etapas' }),
    })
    await expect(card).toContainText('Ao entrar, você digita também um código do aplicativo')
    await expect(card).not.toContainText('senha')
  },
)

test(
  'linking by password: Início counts no failed attempt, and the log names the provider by its label',
  { tag: SERVER_DECIDES },
  async ({ page, browser, api }) => {
    const person = await createStaff(api, { name: 'Nina Vincula', label: 'nina-sso' })
    await signInThroughProvider(page, person.email, { unverified: true })
    await expect(page.getByRole('status')).toHaveText(LINK_BY_PASSWORD)
    await signInWithForm(page, person, LINK_BUTTON)
    await expect(page.getByRole('heading', { name: 'Início', level: 1 })).toBeVisible()
    // The provider's refusal was the person's own first step, not an attempt on their account.
    // (Its sessions' line comes in the same answer as the failures: once it shows, they would.)
    await expect(page.getByText('Só esta sessão está aberta.')).toBeVisible()
    await expect(page.getByText(/tentativas? de acesso com falha/)).toHaveCount(0)

    const adminContext = await browser.newContext()
    try {
      const admin = await adminContext.newPage()
      await admin.goto(`/#/login?redirect=${encodeURIComponent(`/auditoria?account=${person.id}`)}`)
      await signInWithForm(admin, e2e.admin)
      const events = admin.getByRole('list', { name: 'Eventos da auditoria' })
      const linked = events
        .getByRole('listitem')
        .filter({ hasText: 'Provedor de identidade vinculado' })
      await expect(linked).toContainText(`pelo provedor «${e2e.oidc.label}»`)
      await expect(linked).toContainText('aviso enviado por e-mail')
      await expect(
        events.getByRole('listitem').filter({ hasText: 'Falha ao entrar' }).first(),
      ).toContainText(`pelo provedor «${e2e.oidc.label}»`)
      await expect(events).not.toContainText('«corp»')
    } finally {
      await adminContext.close()
    }
  },
)

test(
  'an e-mail the provider does not vouch for is not linked; the person links it with the password once',
  { tag: SERVER_DECIDES },
  async ({ page, api }) => {
    const person = await createStaff(api, { name: 'Lia Sem Prova', label: 'lia-sso' })
    await signInThroughProvider(page, person.email, { unverified: true })
    await expectRoute(page, '/login')
    await expect(page.getByRole('status')).toHaveText(LINK_BY_PASSWORD)
    expect(await tokenIn(page)).toBeNull()

    // Not linked: the provider alone still does not sign the person in.
    await providerButton(page).click()
    await expect(page.getByRole('status')).toHaveText(LINK_BY_PASSWORD)
    expect(await tokenIn(page)).toBeNull()

    // A wrong password links nothing and says so; the right one links and signs in.
    await signInWithForm(page, { ...person, password: 'nao-e-a-senha-1' }, LINK_BUTTON)
    await expect(page.getByRole('alert')).toHaveText('E-mail ou senha incorretos.')
    await signInWithForm(page, person, LINK_BUTTON)
    await expect(page.getByRole('heading', { name: 'Início', level: 1 })).toBeVisible()

    // Minha conta lists the provider now; signed out, the provider alone signs the person in.
    await page.goto('/#/perfil')
    const providers = page.getByRole('list', { name: 'Provedores de identidade' })
    await expect(providers.getByText(e2e.oidc.label, { exact: true })).toBeVisible()
    await signOut(page)
    await providerButton(page).click()
    await expect(page.getByRole('heading', { name: 'Início', level: 1 })).toBeVisible()
  },
)

test(
  'an admin mails a link from Equipe; the person opens it, signs in at the provider with an e-mail it does not vouch for, and is in, linked',
  { tag: SERVER_DECIDES },
  async ({ page, browser, api }) => {
    const person = await createStaff(api, { name: 'Vera Vínculo', label: 'vera-link' })
    const label = e2e.oidc.label
    const adminContext = await browser.newContext()
    try {
      const admin = await adminContext.newPage()
      await admin.goto(`/#/login?redirect=${encodeURIComponent(`/equipe/${person.id}`)}`)
      await signInWithForm(admin, e2e.admin)
      await expect(admin.getByRole('heading', { name: person.name, level: 1 })).toBeVisible()
      await admin.getByRole('button', { name: `Enviar link para vincular ${label}` }).click()
      await expect(
        admin.getByText(`Link para vincular ${label} enviado para ${person.email}.`, {
          exact: false,
        }),
      ).toBeVisible()

      // The person's own mailbox: who asked, which provider, 24 hours, and the link.
      const mail = await waitForMailAbout(
        person.email,
        new RegExp(`vincule o provedor de identidade «${label}» à sua conta`),
      )
      expect(mail.text).toContain(e2e.admin.email)
      expect(mail.text).toContain('24 horas')
      const link = /#(\/vincular\?token=[A-Za-z0-9_-]{43})/.exec(mail.text)?.[1]
      expect(link, mail.text).toBeTruthy()

      await page.goto(`/#${link}`)
      await expect(
        page.getByRole('heading', { name: 'Vincular provedor de identidade', level: 1 }),
      ).toBeVisible()
      await expect(
        page.getByText(`à conta de Vera Vínculo (${person.email}) no Painel`),
      ).toBeVisible()
      // The provider by its label, after the word "provedor" (right for any label).
      await expect(
        page.getByText(`Este link vincula a sua conta do provedor de identidade «${label}»`),
      ).toBeVisible()
      await page.getByRole('button', { name: `Entrar com ${label} e vincular` }).click()
      // Without the link, this e-mail (unvouched for) would only be offered the password.
      await signInAtProvider(page, person.email, { unverified: true })
      await expect(page.getByRole('heading', { name: 'Início', level: 1 })).toBeVisible()
      await expectRoute(page, '/dashboard')
      expect(await tokenIn(page)).not.toBeNull()

      // Equipe now lists the provider among the ways in, and offers no link for it any more.
      await admin.reload()
      await expect(
        admin.getByRole('definition').filter({ hasText: `Senha, ${label}` }),
      ).toBeVisible()
      await expect(
        admin.getByRole('button', { name: `Enviar link para vincular ${label}` }),
      ).toBeHidden()

      // A used link says so, and offers the way to the login page.
      await page.goto(`/#${link}`)
      await expect(page.getByRole('alert')).toContainText('já foi usado')
    } finally {
      await adminContext.close()
    }
  },
)

test(
  'an account with an authenticator app links by its password and a code, and the link then asks only the code',
  { tag: SERVER_DECIDES },
  async ({ page, api }) => {
    const person = await createStaff(api, { name: 'Caio Dois Passos', label: 'caio-sso' })
    const { secret } = await withAuthenticator(api, person.email, person.password)

    await signInThroughProvider(page, person.email, { unverified: true })
    await expect(page.getByRole('status')).toHaveText(LINK_BY_PASSWORD)
    await signInWithForm(page, person, LINK_BUTTON)
    await expect(page.getByRole('heading', { name: 'Verificação em duas etapas' })).toBeVisible()
    // A code of the next step: within the step the server allows, and not used yet.
    await page
      .getByLabel('Código de verificação')
      .fill(authenticatorCode(secret, Date.now() + 30_000))
    await page.getByRole('button', { name: 'Verificar' }).click()
    await expect(page.getByRole('heading', { name: 'Início', level: 1 })).toBeVisible()

    // Linked: signed out, the provider leads to the code step, not to the link's notice.
    await signOut(page)
    await providerButton(page).click()
    await expect(page.getByRole('heading', { name: 'Verificação em duas etapas' })).toBeVisible()
    await expect(page.getByText(LINK_BY_PASSWORD)).toBeHidden()
  },
)

test('cancelled at the provider: the login page says so, and the form is still there', async ({
  page,
  browser,
}) => {
  await page.goto('/#/login')
  await providerButton(page).click()
  await expect(page.getByRole('heading', { name: 'Provedor de teste' })).toBeVisible()
  await page.getByRole('link', { name: 'Cancelar' }).click()
  await expectRoute(page, '/login')
  await expect(page.getByRole('alert')).toHaveText(
    'A entrada foi cancelada no provedor. Tente de novo quando quiser.',
  )
  await expect(page.getByRole('button', { name: 'Entrar', exact: true })).toBeVisible()

  // Auditoria: nobody's account, so "Alguém" tried (not "Sistema"), at the provider by its label.
  const adminContext = await browser.newContext()
  try {
    const admin = await adminContext.newPage()
    await admin.goto(`/#/login?redirect=${encodeURIComponent('/auditoria?type=sign_in_failed')}`)
    await signInWithForm(admin, e2e.admin)
    const cancelled = admin
      .getByRole('list', { name: 'Eventos da auditoria' })
      .getByRole('listitem')
      .filter({ hasText: `pelo provedor «${e2e.oidc.label}», cancelada no provedor` })
      .first()
    await expect(cancelled).toContainText('Alguém')
    await expect(cancelled).not.toContainText('Sistema')
  } finally {
    await adminContext.close()
  }
})

test("the provider's button is in the served page itself, before any script", async ({
  browser,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false })
  try {
    const page = await context.newPage()
    await page.goto('/#/login')
    const link = page.getByRole('link', { name: `Entrar com ${e2e.oidc.label}` })
    await expect(link).toHaveAttribute('href', '/api/auth/oidc/corp/start')
    // Its mark is drawn in the page (a generic provider's: a key), and named by the words only.
    await expect(link.locator('svg[aria-hidden="true"]')).toHaveCount(1)
  } finally {
    await context.close()
  }
})

test('the provider’s mark stays beside its words once the page has hydrated, fetching nothing', async ({
  page,
}) => {
  const requests: string[] = []
  page.on('request', (request) => requests.push(new URL(request.url()).pathname))
  await page.goto('/#/login')
  const link = providerButton(page)
  await expect(link).toBeVisible()
  // Hydrated: the passkey button works only then, and the link is still the served one.
  await expect(page.getByRole('button', { name: 'Entrar com chave de acesso' })).toBeEnabled()
  await expect(link.locator('svg path')).toHaveCount(1)
  const box = await link.locator('svg').boundingBox()
  expect(box?.width).toBe(20)
  expect(requests.filter((path) => /\.svg$/.test(path))).toEqual([])
})
