import assert from 'node:assert/strict'
import type { LightMyRequestResponse } from 'fastify'
import type { ApiFixture } from './api-fixture'
import type { OidcTestProvider } from './oidc-test-provider'

/**
 * A sign-in through the provider `name` as a browser makes it (docs/single-sign-on.md): its
 * button (`/start`), the provider's page as `login` (the test provider's, or glewlwyd's:
 * server/test/glewlwyd-provider.ts), and the callback with the cookie the start set. Answers the callback's response, a 302 to the login page (fails the test otherwise).
 */
export async function comeBackFromProvider(
  api: Pick<ApiFixture, 'app'>,
  op: Pick<OidcTestProvider, 'signIn'>,
  name: string,
  login: string,
): Promise<LightMyRequestResponse> {
  const started = await api.app.inject({ method: 'GET', url: `/api/auth/oidc/${name}/start` })
  const [cookie = ''] = ([] as string[]).concat(started.headers['set-cookie'] ?? [])
  const back = await op.signIn(String(started.headers.location), login)
  const returned = await api.app.inject({
    method: 'GET',
    url: back.pathname + back.search,
    headers: { cookie: cookie.split(';')[0] ?? '' },
  })
  assert.equal(returned.statusCode, 302, returned.body)
  return returned
}

/** The query of the login page a callback sends the browser to (`sso`, `link`, `error`…). */
export function loginQuery(callback: LightMyRequestResponse): URLSearchParams {
  const location = String(callback.headers.location)
  return new URLSearchParams(location.slice(location.indexOf('?') + 1))
}

/** A session through the provider `name`: the token the exchange of the callback's code answers. */
export async function sessionThroughProvider(
  api: Pick<ApiFixture, 'app' | 'post'>,
  op: OidcTestProvider,
  name: string,
  login: string,
): Promise<string> {
  const code = loginQuery(await comeBackFromProvider(api, op, name, login)).get('sso')
  const answer = await api.post('/api/auth/oidc/exchange', { code })
  assert.equal(answer.statusCode, 200, answer.body)
  return answer.json<{ token: string }>().token
}
