import { expect, type APIRequestContext } from '@playwright/test'
import { TOTP } from 'otpauth'
import { apiSignIn } from './accounts'

/** The authenticator app's code for `secret` at `at` (now unless told): 6 digits, 30 s, SHA-1. */
export const authenticatorCode = (secret: string, at = Date.now()) =>
  new TOTP({ secret, digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp: at })

/**
 * Turns the authenticator app on through the API: the session that did it (signed in before, so
 * without a code), the app's secret and its ten recovery codes. The code that confirmed it is
 * used: a sign-in afterwards takes the next step's (`authenticatorCode(secret, Date.now() + 30_000)`).
 */
export async function withAuthenticator(api: APIRequestContext, email: string, password: string) {
  const token = await apiSignIn(api, email, password)
  const headers = { authorization: `Bearer ${token}` }
  const setup = await api.post('/api/me/totp', { headers })
  const { secret } = (await setup.json()) as { secret: string }
  const confirmed = await api.post('/api/me/totp/confirm', {
    headers,
    data: { code: authenticatorCode(secret) },
  })
  expect(confirmed.status(), await confirmed.text()).toBe(200)
  const { recoveryCodes } = (await confirmed.json()) as { recoveryCodes: string[] }
  return { token, secret, codes: recoveryCodes }
}
