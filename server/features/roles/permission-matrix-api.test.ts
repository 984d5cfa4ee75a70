import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { LightMyRequestResponse } from 'fastify'
import type { AuditPage } from '../../../common/api/audit'
import type { RoleAnswer, TeamAnswer } from '../../../common/api/roles'
import type { StaffBulkAnswer, StaffList } from '../../../common/api/staff'
import {
  BUILT_IN_ROLE_IDS,
  PERMISSIONS,
  type OperationAccess,
  type Permission,
  type RoleScope,
} from '../../../common/permissions'
import { createAccount } from '../../accounts/accounts'
import { hashPassword } from '../../accounts/passwords'
import { createSession } from '../../accounts/sessions'
import type { AccountStatus } from '../../db/schema'
import type { OpenApiDocument } from '../../openapi/api-description'
import { effectivePermissions } from '../../roles/grant-rules'
import { ADMIN, apiFixture, errorOf, type ApiFixture, type Method } from '../../test/api-fixture'
import { AUDITORS, SUPPORT, TEAM_MANAGER } from '../../test/sample-roles'
import { testStoreName } from '../../test/test-database'

/**
 * Issue 29's matrix (docs/roles-and-teams.md): every operation of GET /api/openapi.json, called
 * by a person of each built-in role and of three sample ones, is allowed or refused 403 exactly
 * as its x-permission and the role's permissions say; then a team's manager, given the id of a
 * person of another team, gets 404 on every route that takes a person's id. The operations are
 * read from the document, and one without a request below fails the test: a new route joins
 * the matrix when it is written.
 *
 * Each call is made by a person made for it, on a person made for it (rows written directly, one
 * password hash for all), so what one call changes (a logout, a refusal) touches no other.
 */

const PASSWORD = 'senha-da-matriz-42'

interface Role {
  name: string
  id?: string
  permissions: readonly Permission[]
  scope: RoleScope
}

const ROLES: Role[] = [
  { name: 'Administrador', id: BUILT_IN_ROLE_IDS.admin, permissions: PERMISSIONS, scope: 'all' },
  { name: 'Equipe', id: BUILT_IN_ROLE_IDS.staff, permissions: [], scope: 'all' },
  // Copies: the set-up below writes each one's id.
  { ...TEAM_MANAGER },
  { ...AUDITORS },
  { ...SUPPORT },
]

/** What a request needs made for it: its caller, and the people, roles and teams it names. */
interface Scene {
  actor: { id: string; email: string }
  /** A new person of the scene's team, in this state (`invited`: an open invitation). */
  person: (status: AccountStatus | 'invited') => Promise<string>
  role: () => Promise<string>
  team: () => Promise<string>
  unique: () => string
}

interface Request {
  url: string
  body?: object
  /** A permission the body asks for beyond the operation's x-permission (PATCH /staff/:id). */
  alsoNeeds?: Permission
}

const noSuchId = '9b2f4d0e-1c3a-4e5b-8f6a-7d8e9f0a1b2c'
const credential = {
  id: 'AAAA',
  rawId: 'AAAA',
  type: 'public-key',
  response: { clientDataJSON: 'AAAA', authenticatorData: 'AAAA', signature: 'AAAA' },
  clientExtensionResults: {},
}

/**
 * A request good enough for each operation to pass its checks of input and reach what it does:
 * "METHOD /path" as the document spells it.
 */
const REQUESTS: Record<string, (scene: Scene) => Request | Promise<Request>> = {
  'POST /api/auth/login': ({ actor }) => ({
    url: '/api/auth/login',
    body: { email: actor.email, password: PASSWORD },
  }),
  'POST /api/auth/login/mfa': () => ({
    url: '/api/auth/login/mfa',
    body: { challenge: 'sem-desafio', code: '123456' },
  }),
  'POST /api/auth/passkey/options': () => ({ url: '/api/auth/passkey/options', body: {} }),
  'POST /api/auth/passkey': () => ({ url: '/api/auth/passkey', body: { response: credential } }),
  'GET /api/auth/oidc/{name}/start': () => ({ url: '/api/auth/oidc/nenhum/start' }),
  'GET /api/auth/oidc/{name}/callback': () => ({ url: '/api/auth/oidc/nenhum/callback' }),
  'POST /api/auth/oidc/exchange': () => ({
    url: '/api/auth/oidc/exchange',
    body: { code: 'sem-codigo' },
  }),
  'POST /api/auth/oidc/link-invitation': () => ({
    url: '/api/auth/oidc/link-invitation',
    body: { token: 'sem-link-nenhum-valido-aqui-0000000000' },
  }),
  'POST /api/auth/oidc/link-invitation/start': () => ({
    url: '/api/auth/oidc/link-invitation/start',
    body: { token: 'sem-link-nenhum-valido-aqui-0000000000' },
  }),
  'POST /api/staff/{id}/provider-link-invitations': async ({ person }) => ({
    url: `/api/staff/${await person('active')}/provider-link-invitations`,
    body: { provider: 'nenhum' },
  }),
  'GET /api/me/providers': () => ({ url: '/api/me/providers' }),
  'DELETE /api/me/providers/{id}': () => ({ url: `/api/me/providers/${noSuchId}` }),
  'POST /api/auth/logout': () => ({ url: '/api/auth/logout' }),
  'GET /api/auth/me': () => ({ url: '/api/auth/me' }),
  'GET /api/auth/session-events': () => ({ url: '/api/auth/session-events' }),
  'GET /api/auth/teams': () => ({ url: '/api/auth/teams' }),
  'POST /api/auth/register': ({ unique }) => ({
    url: '/api/auth/register',
    body: { name: 'Nova Pessoa', email: `${unique()}@example.com`, password: PASSWORD },
  }),
  'POST /api/auth/password-recovery': ({ actor }) => ({
    url: '/api/auth/password-recovery',
    body: { email: actor.email },
  }),
  'POST /api/auth/password-reset': () => ({
    url: '/api/auth/password-reset',
    body: { token: 'sem-token', password: PASSWORD },
  }),
  'POST /api/auth/password-reset/check': () => ({
    url: '/api/auth/password-reset/check',
    body: { token: 'sem-token' },
  }),
  'POST /api/auth/password': () => ({
    url: '/api/auth/password',
    body: { currentPassword: PASSWORD, newPassword: 'outra senha bem longa 42' },
  }),
  'POST /api/auth/password-strength': () => ({
    url: '/api/auth/password-strength',
    body: { password: 'abc' },
  }),
  'PATCH /api/me': () => ({ url: '/api/me', body: { name: 'Nome Novo' } }),
  'GET /api/me/session': () => ({ url: '/api/me/session' }),
  'POST /api/me/session/renew': () => ({ url: '/api/me/session/renew' }),
  'GET /api/me/sessions': () => ({ url: '/api/me/sessions' }),
  'DELETE /api/me/sessions': () => ({ url: '/api/me/sessions' }),
  'DELETE /api/me/sessions/{id}': () => ({ url: `/api/me/sessions/${noSuchId}` }),
  'GET /api/me/mfa': () => ({ url: '/api/me/mfa' }),
  'POST /api/me/totp': () => ({ url: '/api/me/totp' }),
  'DELETE /api/me/totp': () => ({ url: '/api/me/totp', body: { password: PASSWORD } }),
  'POST /api/me/totp/confirm': () => ({ url: '/api/me/totp/confirm', body: { code: '123456' } }),
  'POST /api/me/recovery-codes': () => ({
    url: '/api/me/recovery-codes',
    body: { password: PASSWORD },
  }),
  'GET /api/me/passkeys': () => ({ url: '/api/me/passkeys' }),
  'POST /api/me/passkeys': () => ({
    url: '/api/me/passkeys',
    body: { response: credential, name: 'Chave' },
  }),
  'POST /api/me/passkeys/options': () => ({ url: '/api/me/passkeys/options' }),
  'PATCH /api/me/passkeys/{id}': () => ({
    url: `/api/me/passkeys/${noSuchId}`,
    body: { name: 'Chave' },
  }),
  'DELETE /api/me/passkeys/{id}': () => ({ url: `/api/me/passkeys/${noSuchId}` }),
  'GET /api/staff': () => ({ url: '/api/staff?pageSize=5' }),
  'POST /api/staff/invitations': ({ unique }) => ({
    url: '/api/staff/invitations',
    body: { name: 'Pessoa Convidada', email: `${unique()}@example.com` },
  }),
  'POST /api/staff/bulk': async ({ person }) => ({
    url: '/api/staff/bulk',
    body: { action: 'approve', ids: [await person('pending')] },
    alsoNeeds: 'staff.approve',
  }),
  'GET /api/staff/{id}': async ({ person }) => ({ url: `/api/staff/${await person('active')}` }),
  'PATCH /api/staff/{id}': async ({ person }) => ({
    url: `/api/staff/${await person('active')}`,
    body: { status: 'disabled' },
    alsoNeeds: 'staff.disable',
  }),
  'DELETE /api/staff/{id}': async ({ person }) => ({
    url: `/api/staff/${await person('pending')}`,
    body: {},
  }),
  'POST /api/staff/{id}/unlock': async ({ person }) => ({
    url: `/api/staff/${await person('active')}/unlock`,
  }),
  'POST /api/staff/{id}/sign-out': async ({ person }) => ({
    url: `/api/staff/${await person('active')}/sign-out`,
  }),
  'POST /api/staff/{id}/password-reset': async ({ person }) => ({
    url: `/api/staff/${await person('active')}/password-reset`,
  }),
  'POST /api/staff/{id}/invitation': async ({ person }) => ({
    url: `/api/staff/${await person('invited')}/invitation`,
  }),
  'DELETE /api/staff/{id}/mfa': async ({ person }) => ({
    url: `/api/staff/${await person('active')}/mfa`,
  }),
  'GET /api/permissions': () => ({ url: '/api/permissions' }),
  'GET /api/roles': () => ({ url: '/api/roles' }),
  'POST /api/roles': ({ unique }) => ({
    url: '/api/roles',
    body: { name: unique(), description: '', permissions: [], scope: 'team' },
  }),
  'PATCH /api/roles/{id}': async ({ role }) => ({
    url: `/api/roles/${await role()}`,
    body: { description: 'Mudou' },
  }),
  'DELETE /api/roles/{id}': async ({ role }) => ({ url: `/api/roles/${await role()}` }),
  'GET /api/scim-tokens': () => ({ url: '/api/scim-tokens' }),
  'POST /api/scim-tokens': ({ unique }) => ({ url: '/api/scim-tokens', body: { name: unique() } }),
  'DELETE /api/scim-tokens/{id}': () => ({ url: `/api/scim-tokens/${noSuchId}` }),
  'GET /api/teams': () => ({ url: '/api/teams' }),
  'POST /api/teams': ({ unique }) => ({ url: '/api/teams', body: { name: unique() } }),
  'PATCH /api/teams/{id}': async ({ team }) => ({
    url: `/api/teams/${await team()}`,
    body: { description: 'Mudou' },
  }),
  'DELETE /api/teams/{id}': async ({ team }) => ({ url: `/api/teams/${await team()}` }),
  'GET /api/audit': () => ({ url: '/api/audit' }),
  'GET /api/audit.csv': () => ({ url: '/api/audit.csv' }),
  'GET /api/dashboard': () => ({ url: '/api/dashboard' }),
  'GET /api/dashboard/me': () => ({ url: '/api/dashboard/me' }),
  'POST /api/auth/oidc/link': ({ actor }) => ({
    url: '/api/auth/oidc/link',
    body: { email: actor.email, password: PASSWORD },
  }),
  'POST /api/auth/oidc/link/mfa': () => ({
    url: '/api/auth/oidc/link/mfa',
    body: { challenge: 'sem-desafio', code: '123456' },
  }),
  'GET /api/me/notices': () => ({ url: '/api/me/notices' }),
  'PATCH /api/me/notices': () => ({ url: '/api/me/notices', body: { newBrowser: false } }),
  'POST /api/me/email': ({ unique }) => ({
    url: '/api/me/email',
    body: { email: `${unique()}@example.com`, password: PASSWORD },
  }),
  'POST /api/auth/email/confirm': () => ({
    url: '/api/auth/email/confirm',
    body: { token: 'sem-link-nenhum-valido-aqui-0000000000' },
  }),
  'POST /api/auth/email/cancel': () => ({
    url: '/api/auth/email/cancel',
    body: { token: 'sem-link-nenhum-valido-aqui-0000000000' },
  }),
  'POST /api/staff/{id}/email': async ({ person, unique }) => ({
    url: `/api/staff/${await person('active')}/email`,
    body: { email: `${unique()}@example.com` },
  }),
  'GET /api/me/export': () => ({ url: '/api/me/export' }),
  'POST /api/me/deletion-request': () => ({
    url: '/api/me/deletion-request',
    body: { password: PASSWORD },
  }),
  'GET /api/staff/deletion-requests': () => ({ url: '/api/staff/deletion-requests' }),
  'POST /api/staff/{id}/deletion-request/refuse': async ({ person }) => ({
    url: `/api/staff/${await person('active')}/deletion-request/refuse`,
    body: { reason: 'Ainda há pendências.' },
  }),
  'POST /api/staff/{id}/anonymise': async ({ person }) => ({
    url: `/api/staff/${await person('active')}/anonymise`,
  }),
}

/** The session check's refusals: no session, or one that has ended (access/authenticate.ts). */
const SESSION_REFUSALS = new Set(['unauthenticated', 'session_revoked', 'session_expired'])

/** Whether the answer is a refusal of the caller (not of the request's content). */
function refusedAccess(answer: LightMyRequestResponse): boolean {
  if (answer.statusCode === 403) return true
  return answer.statusCode === 401 && SESSION_REFUSALS.has(errorOf(answer).code)
}

const describeCall = (method: string, request: Request, answer: LightMyRequestResponse) =>
  `${method} ${request.url}: ${answer.statusCode} ${answer.body.slice(0, 200)}`

describe(`the permission matrix (${testStoreName()})`, () => {
  let api: ApiFixture
  let admin: string
  let passwordHash: string
  let operations: { method: Method; path: string; access: OperationAccess }[]
  let teamA: string
  let teamB: string
  let made = 0
  const unique = () => `matriz-${(made += 1)}`

  before(async () => {
    api = await apiFixture({ authRateLimit: 100_000, logLevel: 'silent' })
    admin = await api.signIn(ADMIN.email, ADMIN.password)
    passwordHash = await hashPassword(PASSWORD)
    const document = (await api.get('/api/openapi.json')).json<OpenApiDocument>()
    operations = Object.entries(document.paths ?? {}).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({
        method: method.toUpperCase() as Method,
        path,
        access: operation['x-permission'] as OperationAccess,
      })),
    )
    teamA = await adminMakes<TeamAnswer>('/api/teams', { name: 'Time A' }).then((a) => a.team.id)
    teamB = await adminMakes<TeamAnswer>('/api/teams', { name: 'Time B' }).then((a) => a.team.id)
    for (const role of ROLES) {
      role.id ??= (
        await adminMakes<RoleAnswer>('/api/roles', {
          name: role.name,
          description: '',
          permissions: role.permissions,
          scope: role.scope,
        })
      ).role.id
    }
  })
  after(() => api.close())

  async function adminMakes<T>(url: string, body: object): Promise<T> {
    const answer = await api.call('POST', url, admin, body)
    assert.equal(answer.statusCode, 201, `${url}: ${answer.body}`)
    return answer.json<T>()
  }

  /** A person straight in the database (no hash of their own: every one has PASSWORD). */
  async function person(
    roleId: string,
    teamId: string | null,
    status: AccountStatus | 'invited' = 'active',
  ) {
    const email = `${unique()}@example.com`
    const row = await createAccount(api.database.db, {
      name: 'Pessoa da Matriz',
      email,
      passwordHash,
      role: 'staff',
      roleId,
      teamId,
      status: status === 'invited' ? 'active' : status,
    })
    assert.ok(row)
    if (status === 'invited') {
      await api.database.db
        .updateTable('accounts')
        .set({ invitation_expires_at: new Date(Date.now() + 86_400_000) })
        .where('id', '=', row.id)
        .execute()
    }
    return { id: row.id, email }
  }

  function sceneIn(teamId: string, actor: { id: string; email: string }): Scene {
    return {
      actor,
      person: async (status) => (await person(BUILT_IN_ROLE_IDS.staff, teamId, status)).id,
      role: async () =>
        (
          await adminMakes<RoleAnswer>('/api/roles', {
            name: unique(),
            description: '',
            permissions: [],
            scope: 'team',
          })
        ).role.id,
      team: async () => (await adminMakes<TeamAnswer>('/api/teams', { name: unique() })).team.id,
      unique,
    }
  }

  const requestFor = (method: string, path: string) => {
    const make = REQUESTS[`${method} ${path}`]
    assert.ok(make, `${method} ${path} has no request in the matrix: add one to REQUESTS`)
    return make
  }

  it('has a request for every operation of the document, and none for one it lacks', () => {
    const documented = new Set(operations.map(({ method, path }) => `${method} ${path}`))
    assert.deepEqual(
      [...documented].filter((key) => !(key in REQUESTS)),
      [],
      'operations with no request in the matrix',
    )
    assert.deepEqual(
      Object.keys(REQUESTS).filter((key) => !documented.has(key)),
      [],
      'requests for operations the document lacks',
    )
  })

  it('a public operation answers without a session; any other is 401 without one', async () => {
    for (const { method, path, access } of operations) {
      const scene = sceneIn(teamA, await person(BUILT_IN_ROLE_IDS.staff, teamA))
      const request = await requestFor(method, path)(scene)
      const answer = await api.call(method, request.url, undefined, request.body)
      const said = describeCall(method, request, answer)
      assert.ok(answer.statusCode < 500, said)
      if (access === 'public') assert.ok(!refusedAccess(answer), said)
      else {
        assert.equal(answer.statusCode, 401, said)
        assert.equal(errorOf(answer).code, 'unauthenticated', said)
      }
    }
  })

  for (const role of ROLES) {
    it(`${role.name}: allowed or 403 exactly as its permissions say`, async () => {
      const held = new Set(effectivePermissions(role.permissions))
      const allowed: string[] = []
      for (const { method, path, access } of operations) {
        if (access === 'public') continue
        const actor = await person(role.id!, teamA)
        const token = await createSession(api.database.db, actor.id, 3600)
        const request = await requestFor(method, path)(sceneIn(teamA, actor))
        const needs = [access, request.alsoNeeds].filter(
          (need): need is Permission => need !== undefined && need !== 'signed-in',
        )
        const answer = await api.call(method, request.url, token, request.body)
        const said = `${role.name}, ${describeCall(method, request, answer)}`
        assert.ok(answer.statusCode < 500, said)
        if (needs.every((need) => held.has(need))) {
          assert.ok(!refusedAccess(answer), said)
          allowed.push(`${method} ${path}`)
        } else {
          assert.equal(answer.statusCode, 403, said)
          assert.equal(errorOf(answer).code, 'forbidden', said)
        }
      }
      // The matrix is no matrix if a role is refused everything or nothing by mistake.
      assert.ok(allowed.includes('GET /api/auth/me'), role.name)
    })
  }

  it("a team's manager gets 404 for another team's person, on every route that takes one", async () => {
    // Every permission, scoped to team A: only the reach can refuse.
    const everything = await adminMakes<RoleAnswer>('/api/roles', {
      name: 'Gestor de tudo',
      description: '',
      permissions: [...PERMISSIONS],
      scope: 'team',
    })
    const manager = await person(everything.role.id, teamA)
    const token = await createSession(api.database.db, manager.id, 3600)
    const personRoutes = operations.filter(({ path }) => path.startsWith('/api/staff/{id}'))
    assert.ok(personRoutes.length >= 8, `only ${personRoutes.length} routes take a person`)
    const theirs: string[] = []
    for (const { method, path } of personRoutes) {
      for (const spelling of [(id: string) => id, (id: string) => id.toUpperCase()]) {
        // The request that works in the manager's own team, on a person of team B.
        const scene = sceneIn(teamB, manager)
        const request = await requestFor(method, path)(scene)
        const id = /\/api\/staff\/([^/]+)/.exec(request.url)![1]!
        theirs.push(id)
        const url = request.url.replace(id, spelling(id))
        const answer = await api.call(method, url, token, request.body)
        assert.equal(answer.statusCode, 404, describeCall(method, { ...request, url }, answer))
        assert.equal(errorOf(answer).code, 'not_found', url)
      }
    }
    const bulk = await api.call('POST', '/api/staff/bulk', token, {
      action: 'disable',
      ids: theirs.slice(0, 3),
    })
    const { results } = bulk.json<StaffBulkAnswer>()
    assert.equal(results.length, 3, bulk.body)
    for (const result of results) {
      assert.equal(result.outcome, 'failed')
      assert.equal(result.error?.code, 'not_found')
    }
    const list = await api.get(`/api/staff?teamId=${teamB}`, token)
    assert.equal(list.json<StaffList>().total, 0)
    const events = await api.get(`/api/audit?account=${theirs[0]}`, token)
    assert.deepEqual(events.json<AuditPage>().events, [])
    // Nothing of team B changed: no one disabled, removed or signed out by the calls above.
    const rows = await api.database.db
      .selectFrom('accounts')
      .select(['id', 'status'])
      .where('id', 'in', theirs)
      .execute()
    assert.equal(rows.length, theirs.length)
    assert.ok(rows.every((row) => row.status !== 'disabled'))
  })
})
