import { expect, type APIRequestContext } from '@playwright/test'
import { waitForMail } from './mailbox'
import { QUICK_POLL_MS } from './quick-poll'
import { e2e } from './test-env'

export interface TestAccount {
  id: string
  name: string
  email: string
  password: string
  role: 'admin' | 'staff'
}

let counter = 0
/** An e-mail no other test uses, in this run or a later one against the same data. */
export function uniqueEmail(label: string): string {
  counter += 1
  return `${label}-${Date.now().toString(36)}-${process.pid}-${counter}@painel.test`
}

export async function apiSignIn(
  request: APIRequestContext,
  email: string,
  password: string,
): Promise<string> {
  const response = await request.post('/api/auth/login', { data: { email, password } })
  expect(response.status(), await response.text()).toBe(200)
  return ((await response.json()) as { token: string }).token
}

let sceneToken: string | undefined

/**
 * The first admin's token for setting a test's scene, signed in once per worker and reused while
 * it still works. A sign-in is a password hash at the server's real cost (scrypt, about 180 ms of
 * a core here, on threads below the browsers' priority), and each account a test made signed the
 * admin in again. A test may end the admin's sessions: the token is checked with a cheap call
 * before each use, and a new one signed in when it no longer works.
 */
export async function adminToken(request: APIRequestContext): Promise<string> {
  if (sceneToken) {
    const me = await request.get('/api/auth/me', {
      headers: { authorization: `Bearer ${sceneToken}` },
    })
    if (me.ok()) return sceneToken
  }
  sceneToken = await apiSignIn(request, e2e.admin.email, e2e.admin.password)
  return sceneToken
}

/** The first admin's authorization header, for a test's calls that set its scene. */
export async function adminHeaders(request: APIRequestContext): Promise<{ authorization: string }> {
  return { authorization: `Bearer ${await adminToken(request)}` }
}

/** Registers through the API (a pending account); the admin approves it unless told not to. */
export async function createStaff(
  request: APIRequestContext,
  {
    name = 'Ana Teste',
    approve = true,
    label = 'staff',
    role = 'staff',
    email = uniqueEmail(label),
  }: {
    name?: string
    approve?: boolean
    label?: string
    role?: 'admin' | 'staff'
    /** An address of a given shape (unique: the test's own); uniqueEmail(label) by default. */
    email?: string
  } = {},
): Promise<TestAccount> {
  const password = `senha-${Math.random().toString(36).slice(2, 10)}`
  const registered = await request.post('/api/auth/register', { data: { name, email, password } })
  expect(registered.status()).toBe(202)
  const headers = await adminHeaders(request)
  // The server writes a registration just after answering it (the answer's time must not say
  // whether the e-mail existed), so the list may need a moment to show it.
  let id: string | undefined
  await expect(async () => {
    const list = await request.get(`/api/staff?q=${encodeURIComponent(email)}`, { headers })
    const { items } = (await list.json()) as { items: { id: string; email: string }[] }
    id = items.find((account) => account.email === email)?.id
    expect(id, `${email} was registered`).toBeDefined()
  }).toPass({ timeout: 5000, intervals: QUICK_POLL_MS })
  if (!id) throw new Error(`${email} was not registered`)
  if (approve) {
    const approved = await request.patch(`/api/staff/${id}`, {
      data: role === 'admin' ? { status: 'active', role } : { status: 'active' },
      headers,
    })
    expect(approved.status()).toBe(200)
    // The approval mail goes out after the answer. Waited for here, so that a test counting this
    // person's mails afterwards (a reset link, a notice) starts from a settled mailbox instead of
    // taking the approval for the mail it waits for.
    await waitForMail(email)
  }
  return { id, name, email, password, role }
}

export function adminAccount(): TestAccount {
  return { id: '', ...e2e.admin, role: 'admin' }
}
