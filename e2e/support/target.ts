import { e2e } from './test-env'

/**
 * Where the suites run: a panel someone else started (`E2E_BASE_URL`, e.g. staging or the
 * container; only the read-only smoke project is meant for it), or by default the server the
 * Playwright config starts for the run.
 */
export const externalBaseURL = process.env.E2E_BASE_URL?.replace(/\/+$/, '') || undefined

export const targetBaseURL = externalBaseURL ?? e2e.baseURL

/** Who the smoke set signs in as: E2E_USER/E2E_PASSWORD, else the own server's first admin. */
export function smokeCredentials(): { email: string; password: string } | null {
  const email = process.env.E2E_USER
  const password = process.env.E2E_PASSWORD
  if (email && password) return { email, password }
  return externalBaseURL ? null : { email: e2e.admin.email, password: e2e.admin.password }
}
