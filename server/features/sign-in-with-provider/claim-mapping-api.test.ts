import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { BUILT_IN_ROLE_IDS } from '../../../common/permissions'
import { ADMIN, apiFixture, PUBLIC_URL, type ApiFixture } from '../../test/api-fixture'
import {
  registeredProvider,
  startOidcTestProvider,
  type OidcTestProvider,
  type TestAccount,
} from '../../test/oidc-test-provider'
import { comeBackFromProvider, loginQuery } from '../../test/provider-sign-in'
import { testStoreName } from '../../test/test-database'

/**
 * ROLE_CLAIM/ROLE_MAP and TEAM_CLAIM/TEAM_MAP (account-for-identity.ts, docs/single-sign-on.md)
 * through the routes, against the real test provider: a person's claims are changed between two
 * sign-ins by changing their test account's `claims`, which the provider reads at each token.
 */

const NAME = 'mapped'
const mapped = registeredProvider(NAME, PUBLIC_URL)

const person = (id: string, groups: string[]): TestAccount => ({
  id,
  email: `${id}@example.com`,
  emailVerified: true,
  name: `Pessoa ${id}`,
  claims: { groups },
})
const people = {
  gestora: person('gestora', ['outros', 'painel-audit', 'painel-gestores', 'time-vendas']),
  mudanca: person('mudanca', ['painel-audit']),
  fantasma: person('fantasma', ['painel-fantasma', 'time-fantasma']),
  promovida: person('promovida', ['painel-audit', 'painel-admin']),
  chefe: { ...person('chefe', ['painel-audit']), email: ADMIN.email },
}

let op: OidcTestProvider
let api: ApiFixture
let adminToken: string

before(async () => {
  op = await startOidcTestProvider({
    clients: [mapped.client],
    accounts: Object.values(people),
  })
  api = await apiFixture({
    authRateLimit: 10_000,
    authProviders: [
      mapped.settings(op.issuer, {
        autoApprove: true,
        adminClaim: 'groups',
        adminValues: ['painel-admin'],
        roleClaim: 'groups',
        roleMap: [
          { value: 'painel-gestores', name: 'gestor DE equipe' },
          { value: 'painel-fantasma', name: 'Papel que não existe' },
          { value: 'painel-audit', name: 'Auditoria' },
        ],
        teamClaim: 'groups',
        teamMap: [
          { value: 'time-vendas', name: 'Vendas' },
          { value: 'time-fantasma', name: 'Time que não existe' },
        ],
      }),
    ],
  })
  adminToken = await api.signIn(ADMIN.email, ADMIN.password)
  const roles: [string, string[], string][] = [
    ['Gestor de equipe', ['staff.view', 'staff.approve'], 'team'],
    ['Auditoria', ['audit.view', 'audit.export'], 'all'],
  ]
  for (const [name, permissions, scope] of roles) {
    const made = await api.call('POST', '/api/roles', adminToken, {
      name,
      description: '',
      permissions,
      scope,
    })
    assert.equal(made.statusCode, 201, made.body)
  }
  const team = await api.call('POST', '/api/teams', adminToken, { name: 'Vendas' })
  assert.equal(team.statusCode, 201, team.body)
})
after(async () => {
  await api.close()
  await op.stop()
})

/** Presses the button, signs in at the provider as `login`, comes back: the login page's query. */
const signInAt = async (login: string) =>
  loginQuery(await comeBackFromProvider(api, op, NAME, login))

/** The person's role and team by name, as the database has them. */
async function placeOf(email: string) {
  const row = await api.database.db
    .selectFrom('accounts')
    .innerJoin('roles', 'roles.id', 'accounts.role_id')
    .leftJoin('teams', 'teams.id', 'accounts.team_id')
    .select(['accounts.id', 'accounts.role', 'roles.name as roleName', 'teams.name as teamName'])
    .where('accounts.email', '=', email)
    .executeTakeFirstOrThrow()
  return row
}

const detailsOf = async (accountId: string, type: string) =>
  (await api.events(accountId, type)).map((event) => JSON.parse(event.details ?? '{}') as object)

const warnings = () =>
  api
    .logLines()
    .filter((line) => line.level === 40)
    .map((line) => String(line.msg))

describe(`sign-in providers' claims map to a role and a team (${testStoreName()})`, () => {
  it("a new person gets the role and team of the map's first matching pair at creation", async () => {
    const query = await signInAt('gestora')
    assert.ok(query.get('sso'), query.toString())
    const place = await placeOf('gestora@example.com')
    // The claim lists painel-audit first; the map lists painel-gestores first, and it decides.
    assert.equal(place.roleName, 'Gestor de equipe')
    assert.equal(place.role, 'staff')
    assert.equal(place.teamName, 'Vendas')
    assert.deepEqual(await detailsOf(place.id, 'role_changed'), [], 'created so, not changed')
  })

  it('a later sign-in follows the claims: the change is audited with the provider and the person told', async () => {
    await signInAt('mudanca')
    const first = await placeOf('mudanca@example.com')
    assert.equal(first.roleName, 'Auditoria')
    assert.equal(first.teamName, null)

    people.mudanca.claims = { groups: ['painel-gestores', 'time-vendas'] }
    assert.ok((await signInAt('mudanca')).get('sso'))
    const second = await placeOf('mudanca@example.com')
    assert.equal(second.roleName, 'Gestor de equipe')
    assert.equal(second.teamName, 'Vendas')
    assert.deepEqual(await detailsOf(first.id, 'role_changed'), [
      {
        from: 'staff',
        to: 'staff',
        from_role: 'Auditoria',
        to_role: 'Gestor de equipe',
        provider: NAME,
        notice: true,
      },
    ])
    assert.deepEqual(await detailsOf(first.id, 'team_changed'), [
      { from: null, to: 'Vendas', provider: NAME, notice: true },
    ])
    await api.deliverMail()
    const notice = await api.mail.withSubject(
      'mudanca@example.com',
      'Painel: seu papel foi alterado',
    )
    assert.match(notice.text, /alterado de Auditoria para Gestor de equipe/)
    assert.match(notice.text, /provedor de identidade «mapped»/)

    // No claim, or values the map does not know: the role and team stay as they are.
    people.mudanca.claims = { groups: ['outros'] }
    await signInAt('mudanca')
    people.mudanca.claims = {}
    await signInAt('mudanca')
    const kept = await placeOf('mudanca@example.com')
    assert.equal(kept.roleName, 'Gestor de equipe')
    assert.equal(kept.teamName, 'Vendas')
    assert.equal((await detailsOf(first.id, 'role_changed')).length, 1)
  })

  it('a role or team name that does not exist is a warning and changes nothing (no 500)', async () => {
    const query = await signInAt('fantasma')
    assert.ok(query.get('sso'), query.toString())
    const place = await placeOf('fantasma@example.com')
    assert.equal(place.roleName, 'Equipe', "a new person's default")
    assert.equal(place.teamName, null)
    assert.ok(
      warnings().some((msg) =>
        msg.startsWith('AUTH_MAPPED_ROLE_MAP names a role that does not exist'),
      ),
      warnings().join('\n'),
    )
    assert.ok(
      warnings().some((msg) =>
        msg.startsWith('AUTH_MAPPED_TEAM_MAP names a team that does not exist'),
      ),
    )
    // The pair that matches first names nothing: the next pair (Auditoria) is not tried.
    people.fantasma.claims = { groups: ['painel-fantasma', 'painel-audit'] }
    assert.ok((await signInAt('fantasma')).get('sso'))
    assert.equal((await placeOf('fantasma@example.com')).roleName, 'Equipe')
  })

  it('ADMIN_VALUES beside the map give Administrador; leaving the admins group, ROLE_MAP demotes', async () => {
    await signInAt('promovida')
    const place = await placeOf('promovida@example.com')
    assert.equal(place.roleName, 'Administrador')
    assert.equal(place.role, 'admin')
    people.promovida.claims = { groups: ['painel-audit'] }
    await signInAt('promovida')
    assert.equal((await placeOf('promovida@example.com')).roleName, 'Auditoria')
    assert.deepEqual(await detailsOf(place.id, 'role_changed'), [
      {
        from: 'admin',
        to: 'staff',
        from_role: 'Administrador',
        to_role: 'Auditoria',
        provider: NAME,
        notice: true,
      },
    ])
  })

  it('the last active Administrador is not demoted by the provider; with another admin, they are', async () => {
    const admins = await api.database.db
      .selectFrom('accounts')
      .select('email')
      .where('role_id', '=', BUILT_IN_ROLE_IDS.admin)
      .where('status', '=', 'active')
      .execute()
    assert.deepEqual(admins, [{ email: ADMIN.email }], 'the first admin is the only one')
    const query = await signInAt('chefe')
    assert.ok(query.get('sso'), 'signed in all the same')
    const kept = await placeOf(ADMIN.email)
    assert.equal(kept.roleName, 'Administrador')
    assert.deepEqual(await detailsOf(kept.id, 'role_changed'), [])
    assert.ok(
      warnings().some((msg) => msg.includes('would demote the last active Administrador')),
      warnings().join('\n'),
    )
    await api.account('outra', { role: 'admin' })
    await signInAt('chefe')
    assert.equal((await placeOf(ADMIN.email)).roleName, 'Auditoria')
    assert.equal((await detailsOf(kept.id, 'role_changed')).length, 1)
  })
})
