import assert from 'node:assert/strict'
import type { RecoveryCodes, TotpSetup } from '../../common/api/me'
import { totpCode } from '../accounts/totp'
import type { ApiFixture } from './api-fixture'
import type { TestClock } from './test-clock'

/**
 * Turns the authenticator app on for a signed-in person through the API, as Minha conta does:
 * the secret (for `totpCode`) and the ten recovery codes. The code that confirmed it is used up;
 * the clock is moved to the next 30-second step, so `totpCode(secret, clock.now())` is a code
 * the server has not seen yet.
 */
export async function turnOnAuthenticator(
  api: ApiFixture,
  token: string,
  clock: TestClock,
): Promise<{ secret: string; recoveryCodes: string[] }> {
  const setup = (await api.call('POST', '/api/me/totp', token)).json<TotpSetup>()
  const confirmed = await api.call('POST', '/api/me/totp/confirm', token, {
    code: totpCode(setup.secret, clock.now()),
  })
  assert.equal(confirmed.statusCode, 200, confirmed.body)
  clock.advance(30_000)
  return { secret: setup.secret, recoveryCodes: confirmed.json<RecoveryCodes>().recoveryCodes }
}

/** A six-digit code the authenticator does not show now, nor one step either side. */
export function wrongTotpCode(secret: string, clock: TestClock): string {
  const near = new Set(
    [-30_000, 0, 30_000].map((shift) => totpCode(secret, new Date(clock.now().getTime() + shift))),
  )
  for (let n = 0; ; n++) {
    const code = String(n).padStart(6, '0')
    if (!near.has(code)) return code
  }
}
