/**
 * The smoke set's journeys: the words a person reads and clicks, and what each journey expects.
 * One list for both runners: the Playwright smoke spec (e2e/smoke/smoke.spec.ts: Chromium and
 * Firefox) and the WebDriver smoke run (e2e/webdriver/smoke.ts: WebKitGTK). Plain data and
 * fetch only: no Playwright import, so the WebDriver run loads none of it.
 */

export const PUBLIC_PAGES = [
  { path: '/login', heading: 'Entrar' },
  { path: '/register', heading: 'Solicitar cadastro' },
  { path: '/recuperar-senha', heading: 'Recuperar senha' },
  { path: '/404', heading: 'Página não encontrada' },
  { path: '/500', heading: 'Erro no servidor' },
] as const

/** The guard: a page that needs a session sends a visitor to sign in, remembering where to. */
export const GUARD = { path: '/perfil', landsOn: '/login?redirect=%2Fperfil' } as const

export const COLOUR_MODE_KEY = 'coreui-free-react-admin-template-theme'

/** ?theme=: an allowed value applies; anything else is ignored and nothing breaks. */
export const THEME_PARAM = {
  allowed: { url: '/?theme=dark#/login', shown: 'dark' },
  refused: { url: '/?theme=%3Cscript%3E#/login', shown: /^(light|dark)$/ },
} as const

export const SIGN_IN = {
  page: '/login',
  email: 'E-mail',
  password: 'Senha',
  submit: 'Entrar',
  userMenu: 'Menu do usuário',
  signOut: 'Sair',
} as const

/** An admin approves a pending registration in Equipe (only on a panel the run started itself). */
export const APPROVAL = {
  equipe: (email: string) => `/equipe?q=${encodeURIComponent(email)}`,
  found: '1 conta',
  approve: (name: string) => `Aprovar ${name}`,
  dialogSays: 'receberá um e-mail',
  confirm: 'Aprovar',
  done: (name: string) => `O cadastro de ${name} foi aprovado.`,
  status: 'Ativa',
} as const

/** The headers every page answer carries (checked over HTTP, the same for every engine). */
export const PAGE_HEADERS = {
  'content-security-policy': "script-src 'self'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-cache',
} as const

export interface Person {
  name: string
  email: string
  password: string
}

/**
 * A registration waiting for approval, made through the API as the register page would, and
 * listed for the admin (the server writes it just after answering, so it may take a moment).
 */
export async function pendingRegistration(
  baseURL: string,
  admin: { email: string; password: string },
  label: string,
): Promise<Person> {
  const stamp = `${Date.now().toString(36)}-${process.pid}-${Math.random().toString(36).slice(2, 6)}`
  const person = {
    name: `Pessoa Fumaça ${stamp.slice(-4)}`,
    email: `smoke-${label}-${stamp}@painel.test`,
    password: `senha-fumaca-${stamp}`,
  }
  const post = (path: string, body: unknown, token?: string) =>
    fetch(`${baseURL}${path}`, {
      method: 'POST',
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  const registered = await post('/api/auth/register', person)
  if (registered.status !== 202) throw new Error(`register: ${registered.status}`)
  const signedIn = await post('/api/auth/login', admin)
  if (signedIn.status !== 200)
    throw new Error(`admin sign-in: ${signedIn.status} ${await signedIn.text()}`)
  const { token } = (await signedIn.json()) as { token: string }
  try {
    for (let tries = 0; tries < 50; tries += 1) {
      const list = await fetch(`${baseURL}/api/staff?q=${encodeURIComponent(person.email)}`, {
        headers: { authorization: `Bearer ${token}` },
      })
      if (list.status !== 200) throw new Error(`staff list: ${list.status} ${await list.text()}`)
      const { items } = (await list.json()) as { items: { email: string }[] }
      if (items.some((item) => item.email === person.email)) return person
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    throw new Error(`${person.email} was not listed`)
  } finally {
    await post('/api/auth/logout', undefined, token).catch(() => undefined)
  }
}
