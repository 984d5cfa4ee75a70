import assert from 'node:assert/strict'
import type { LightMyRequestResponse } from 'fastify'
import type { AuthProvider } from '../config/auth-providers'
import { ADMIN, type ApiFixture } from './api-fixture'
import type { OidcTestProvider } from './oidc-test-provider'

/**
 * A sign-in through the provider `name` as a browser makes it (docs/single-sign-on.md): its
 * button (`/start`), the provider's page as `login` (the test provider's, or glewlwyd's:
 * server/test/glewlwyd-provider.ts), and the callback with the cookie the start set. Answers the
 * callback's response, a 302 to the login page (fails the test otherwise).
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

/**
 * A provider's settings that place people by their `groups` claim: `painel-auditoria` gives the
 * role Auditoria, `time-vendas` the team Vendas (both made by `createMappedRoleAndTeam`), and new
 * people are active at once.
 */
export const GROUPS_MAPPING: Partial<AuthProvider> = {
  autoApprove: true,
  roleClaim: 'groups',
  roleMap: [{ value: 'painel-auditoria', name: 'Auditoria' }],
  teamClaim: 'groups',
  teamMap: [{ value: 'time-vendas', name: 'Vendas' }],
}

/** The role and the team GROUPS_MAPPING names, made by the first admin through the API. */
export async function createMappedRoleAndTeam(api: Pick<ApiFixture, 'signIn' | 'call'>) {
  const admin = await api.signIn(ADMIN.email, ADMIN.password)
  const role = await api.call('POST', '/api/roles', admin, {
    name: 'Auditoria',
    description: '',
    permissions: ['audit.view'],
    scope: 'all',
  })
  assert.equal(role.statusCode, 201, role.body)
  const team = await api.call('POST', '/api/teams', admin, { name: 'Vendas' })
  assert.equal(team.statusCode, 201, team.body)
}

/** The account with this e-mail: its name, status, and its role's and team's names. */
export const placedAccount = (api: Pick<ApiFixture, 'database'>, email: string) =>
  api.database.db
    .selectFrom('accounts')
    .leftJoin('roles', 'roles.id', 'accounts.role_id')
    .leftJoin('teams', 'teams.id', 'accounts.team_id')
    .select([
      'accounts.id',
      'accounts.name',
      'accounts.status',
      'roles.name as role',
      'teams.name as team',
    ])
    .where('accounts.email', '=', email)
    .executeTakeFirst()
