import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { sql } from 'kysely'
import type { MeAnswer } from '../../../common/api/account'
import type { AuditPage } from '../../../common/api/audit'
import type { OpenTeams } from '../../../common/api/auth'
import type {
  PermissionList,
  RoleAnswer,
  RoleList,
  TeamAnswer,
  TeamList,
} from '../../../common/api/roles'
import type { StaffAccount, StaffBulkAnswer, StaffList } from '../../../common/api/staff'
import { BUILT_IN_ROLE_IDS, PERMISSIONS } from '../../../common/permissions'
import type { OpenApiDocument } from '../../openapi/api-description'
import { ADMIN, apiFixture, errorOf, type ApiFixture } from '../../test/api-fixture'
import { TEAM_MANAGER } from '../../test/sample-roles'
import { testStoreName } from '../../test/test-database'
import { turnsDuring } from '../../test/helpers'
import { nameColumns } from '../../db/name-columns'
import { roleColumns } from '../../db/role-columns'

/**
 * Roles and teams through the API (docs/roles-and-teams.md): every operation declares its
 * access, the roles' writes keep to their rules, and a team-scoped manager reaches their own
 * team only, by any route or id.
 */
describe(`roles and teams (${testStoreName()})`, () => {
  let api: ApiFixture
  let admin: string
  before(async () => {
    api = await apiFixture()
    admin = await api.signIn(ADMIN.email, ADMIN.password)
  })
  after(() => api.close())

  /** An admin's call that must succeed, and its answer (an empty one for 204). */
  const ok = async <T = unknown>(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    body?: object,
  ): Promise<T> => {
    const answer = await api.call(method, url, admin, body)
    assert.ok(answer.statusCode < 300, `${method} ${url}: ${answer.statusCode} ${answer.body}`)
    return (answer.statusCode === 204 ? undefined : answer.json()) as T
  }

  /** A team's deletion events, in the order they were written (SQLite's rowid). */
  const teamDeletionEvents = async (name: string) =>
    (
      await sql<{ type: string; details: string }>`select type, details from audit_events
        where type in ('team_deletion_started', 'team_deleted') order by rowid`.execute(
        api.database.db,
      )
    ).rows
      .map(({ type, details }) => [type, JSON.parse(details) as { name: string }] as const)
      .filter(([, details]) => details.name === name)

  it('every operation of the OpenAPI document declares x-permission (deny by default)', async () => {
    const document = (await api.get('/api/openapi.json')).json<OpenApiDocument>()
    const allowed = new Set<string>([...PERMISSIONS, 'signed-in', 'public'])
    let operations = 0
    for (const [path, methods] of Object.entries(document.paths ?? {})) {
      for (const [method, operation] of Object.entries(methods)) {
        operations += 1
        const declared = operation['x-permission']
        assert.ok(allowed.has(String(declared)), `${method} ${path} declares ${String(declared)}`)
        // A public operation asks for no bearer; any other does.
        assert.equal(declared === 'public', (operation.security ?? []).length === 0, path)
        const byAction = (operation['x-action-permissions'] ?? {}) as Record<string, string>
        for (const need of Object.values(byAction)) assert.ok(allowed.has(need), path)
      }
    }
    assert.ok(operations > 40, `only ${operations} operations`)
    // Where the body chooses the act, the document says what each act is checked against.
    const acts = (method: string, path: string) =>
      new Set(Object.values(document.paths![path]![method]!['x-action-permissions'] as object))
    assert.deepEqual(
      acts('patch', '/api/staff/{id}'),
      new Set(['staff.approve', 'staff.disable', 'staff.roles']),
    )
    assert.deepEqual(acts('post', '/api/staff/bulk'), new Set(['staff.approve', 'staff.disable']))
  })

  it('lists the built-in roles; they are read-only; names are unique case aside', async () => {
    const { roles } = await ok<RoleList>('GET', '/api/roles')
    const admins = roles.find((role) => role.id === BUILT_IN_ROLE_IDS.admin)
    assert.ok(admins)
    assert.deepEqual(admins.permissions, [...PERMISSIONS])
    assert.equal(admins.builtIn, true)
    for (const id of Object.values(BUILT_IN_ROLE_IDS)) {
      const patch = await api.call('PATCH', `/api/roles/${id}`, admin, { name: 'Outro' })
      assert.equal(errorOf(patch).code, 'built_in_role')
      assert.equal(
        errorOf(await api.call('DELETE', `/api/roles/${id}`, admin)).code,
        'built_in_role',
      )
    }
    const taken = await api.call('POST', '/api/roles', admin, {
      name: ' administrador ',
      description: '',
      permissions: [],
      scope: 'all',
    })
    assert.equal(taken.statusCode, 409)
    assert.equal(errorOf(taken).code, 'role_name_taken')
    const { permissions } = await ok<PermissionList>('GET', '/api/permissions')
    assert.equal(permissions.length, PERMISSIONS.length)
  })

  it('creates, changes and deletes a role, with before and after in the audit log', async () => {
    const { role } = await ok<RoleAnswer>('POST', '/api/roles', {
      name: 'Suporte',
      description: 'Atende a central',
      permissions: ['staff.reset', 'staff.unlock'],
      scope: 'all',
    })
    assert.deepEqual(role.permissions, ['staff.unlock', 'staff.reset'])
    const changed = await ok<RoleAnswer>('PATCH', `/api/roles/${role.id.toUpperCase()}`, {
      permissions: ['staff.unlock', 'staff.sessions'],
    })
    assert.deepEqual(changed.role.permissions, ['staff.unlock', 'staff.sessions'])
    const person = await api.account('suporte')
    await ok('PATCH', `/api/staff/${person.id}`, { roleId: role.id })
    const inUse = await api.call('DELETE', `/api/roles/${role.id}`, admin)
    assert.equal(errorOf(inUse).code, 'role_in_use')
    await ok('PATCH', `/api/staff/${person.id}`, { roleId: BUILT_IN_ROLE_IDS.staff })
    await ok('DELETE', `/api/roles/${role.id}`)
    const events = await api.database.db
      .selectFrom('audit_events')
      .select(['type', 'details'])
      .where('type', 'in', ['role_created', 'role_updated', 'role_deleted'])
      .orderBy('at')
      .execute()
    assert.deepEqual(
      events.map((event) => [event.type, JSON.parse(event.details) as unknown]),
      [
        [
          'role_created',
          { name: 'Suporte', permissions: 'staff.unlock,staff.reset', scope: 'all' },
        ],
        [
          'role_updated',
          {
            from_name: 'Suporte',
            name: 'Suporte',
            added: 'staff.sessions',
            removed: 'staff.reset',
            from_scope: 'all',
            scope: 'all',
          },
        ],
        [
          'role_deleted',
          { name: 'Suporte', permissions: 'staff.unlock,staff.sessions', scope: 'all' },
        ],
      ],
    )
    const roleEvents = (await api.events(person.id, 'role_changed')).map(
      (e) => JSON.parse(e.details) as unknown,
    )
    assert.deepEqual(roleEvents[0], {
      from: 'staff',
      to: 'staff',
      from_role: 'Equipe',
      to_role: 'Suporte',
      notice: true,
    })
  })

  describe('a team manager', () => {
    let teamA: string
    let teamB: string
    let manager: string
    let managerId: string
    let mine: string
    let theirs: string
    before(async () => {
      teamA = (await ok<TeamAnswer>('POST', '/api/teams', { name: 'Vendas', open: true })).team.id
      teamB = (await ok<TeamAnswer>('POST', '/api/teams', { name: 'Compras' })).team.id
      const { role } = await ok<RoleAnswer>('POST', '/api/roles', {
        ...TEAM_MANAGER,
        description: '',
        permissions: [...TEAM_MANAGER.permissions, 'staff.roles'],
      })
      const person = await api.account('gestora')
      managerId = person.id
      await ok('PATCH', `/api/staff/${person.id}`, { roleId: role.id, teamId: teamA })
      manager = await api.signIn(person.email, person.password)
      mine = (await api.account('minha')).id
      theirs = (await api.account('alheia')).id
      await ok('PATCH', `/api/staff/${mine}`, { teamId: teamA })
      await ok('PATCH', `/api/staff/${theirs}`, { teamId: teamB })
    })

    it('sees their access, and only their own team in the list', async () => {
      const me = (await api.get('/api/auth/me', manager)).json<MeAnswer>()
      assert.equal(me.user.access.scope, 'team')
      assert.equal(me.user.access.teamName, 'Vendas')
      assert.ok(me.user.access.permissions.includes('staff.view'))
      const { items } = (await api.get('/api/staff?pageSize=100', manager)).json<StaffList>()
      assert.deepEqual(items.map((item) => item.id).sort(), [managerId, mine].sort())
      const filtered = (await api.get(`/api/staff?teamId=${teamB}`, manager)).json<StaffList>()
      assert.equal(filtered.total, 0)
      const team = (await api.get('/api/teams', manager))
        .json<TeamList>()
        .teams.find((item) => item.id === teamA)
      assert.deepEqual(
        team?.managers.map((m) => m.id),
        [managerId],
      )
    })

    it("answers 404 for another team's person on every route, in any spelling", async () => {
      for (const id of [theirs, theirs.toUpperCase()]) {
        for (const [method, url, body] of [
          ['GET', `/api/staff/${id}`],
          ['PATCH', `/api/staff/${id}`, { status: 'disabled' }],
          ['POST', `/api/staff/${id}/unlock`],
          ['POST', `/api/staff/${id}/sign-out`],
          ['POST', `/api/staff/${id}/password-reset`],
          ['POST', `/api/staff/${id}/invitation`],
          ['DELETE', `/api/staff/${id}`],
        ] as const) {
          const answer = await api.call(method, url, manager, body)
          assert.equal(answer.statusCode, 404, `${method} ${url}: ${answer.body}`)
        }
      }
      const bulk = await api.call('POST', '/api/staff/bulk', manager, {
        action: 'disable',
        ids: [theirs],
      })
      const [result] = bulk.json<StaffBulkAnswer>().results
      assert.equal(result?.outcome, 'failed')
      assert.equal(result.error?.code, 'not_found')
      const other = await api.database.db
        .selectFrom('accounts')
        .select('status')
        .where('id', '=', theirs)
        .executeTakeFirstOrThrow()
      assert.equal(other.status, 'active')
      // Their own team's person: the same calls work.
      assert.equal((await api.call('POST', `/api/staff/${mine}/sign-out`, manager)).statusCode, 204)
    })

    it('acts on nobody whose role holds a permission theirs lacks, even in their team', async () => {
      // An Administrador and an auditor (audit.view, which Gestor de equipe lacks) in team A.
      const { role: auditors } = await ok<RoleAnswer>('POST', '/api/roles', {
        name: 'Auditoria interna',
        description: '',
        permissions: ['audit.view'],
        scope: 'all',
      })
      const chief = (await api.account('chefe-do-time', { role: 'admin' })).id
      const auditor = (await api.account('auditora-do-time')).id
      await ok('PATCH', `/api/staff/${chief}`, { teamId: teamA })
      await ok('PATCH', `/api/staff/${auditor}`, { roleId: auditors.id, teamId: teamA })
      for (const id of [chief, auditor]) {
        // Seeing them is no action: their page opens.
        assert.equal((await api.get(`/api/staff/${id}`, manager)).statusCode, 200)
        for (const [method, url, body] of [
          ['PATCH', `/api/staff/${id}`, { status: 'disabled' }],
          ['PATCH', `/api/staff/${id}`, { name: 'Outro Nome' }],
          ['PATCH', `/api/staff/${id.toUpperCase()}`, { roleId: BUILT_IN_ROLE_IDS.staff }],
          ['POST', `/api/staff/${id}/unlock`],
          ['POST', `/api/staff/${id}/sign-out`],
          ['POST', `/api/staff/${id}/password-reset`],
          ['POST', `/api/staff/${id}/invitation`],
          ['DELETE', `/api/staff/${id}`],
        ] as const) {
          const answer = await api.call(method, url, manager, body)
          assert.equal(answer.statusCode, 403, `${method} ${url}: ${answer.body}`)
          assert.equal(errorOf(answer).code, 'outranked', `${method} ${url}`)
          assert.match(errorOf(answer).message, /papel/)
        }
        const bulk = await api.call('POST', '/api/staff/bulk', manager, {
          action: 'disable',
          ids: [id],
        })
        const [result] = bulk.json<StaffBulkAnswer>().results
        assert.equal(result?.outcome, 'failed')
        assert.equal(result.error?.code, 'outranked')
        const row = await api.database.db
          .selectFrom('accounts')
          .select(['status', 'name', 'role_id'])
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
        assert.equal(row.status, 'active')
        assert.notEqual(row.name, 'Outro Nome')
        assert.notEqual(row.role_id, BUILT_IN_ROLE_IDS.staff)
        assert.deepEqual(await api.events(id, 'reset_requested'), [])
      }
      // An Administrador acts on anyone: the auditor is disabled and enabled again.
      await ok('PATCH', `/api/staff/${auditor}`, { status: 'disabled' })
      await ok('PATCH', `/api/staff/${auditor}`, { status: 'active' })
      // Someone whose role holds nothing the manager lacks: the same calls work.
      const peer = (await api.account('par-do-time')).id
      await ok('PATCH', `/api/staff/${peer}`, { teamId: teamA })
      assert.equal((await api.call('POST', `/api/staff/${peer}/unlock`, manager)).statusCode, 204)
      const disabled = await api.call('PATCH', `/api/staff/${peer}`, manager, {
        status: 'disabled',
      })
      assert.equal(disabled.statusCode, 200, disabled.body)
    })

    it('cannot grant more than their own role, nor place people in another team', async () => {
      const grant = await api.call('PATCH', `/api/staff/${mine}`, manager, {
        roleId: BUILT_IN_ROLE_IDS.admin,
      })
      assert.equal(grant.statusCode, 403)
      assert.equal(errorOf(grant).code, 'forbidden')
      const move = await api.call('PATCH', `/api/staff/${mine}`, manager, { teamId: teamB })
      assert.equal(move.statusCode, 403)
      const roles = await api.call('POST', '/api/roles', manager, {
        name: 'Tudo',
        description: '',
        permissions: [],
        scope: 'all',
      })
      assert.equal(roles.statusCode, 403)
    })

    it('a registration naming an open team waits for that team; a closed one is refused', async () => {
      const { teams } = (await api.get('/api/auth/teams')).json<OpenTeams>()
      assert.deepEqual(teams, [{ id: teamA, name: 'Vendas' }])
      const closed = await api.post('/api/auth/register', {
        name: 'Rita Reis',
        email: 'rita@example.com',
        password: 'uma senha bem longa 42',
        teamId: teamB,
      })
      assert.equal(closed.statusCode, 400)
      const answer = await api.post('/api/auth/register', {
        name: 'Rita Reis',
        email: 'rita@example.com',
        password: 'uma senha bem longa 42',
        teamId: teamA,
      })
      assert.equal(answer.statusCode, 202, answer.body)
      const { items } = (await api.get('/api/staff?status=pending', manager)).json<StaffList>()
      assert.deepEqual(
        items.map((item) => [item.email, item.teamName]),
        [['rita@example.com', 'Vendas']],
      )
      const rita = items[0]?.id ?? ''
      await api.call('PATCH', `/api/staff/${rita}`, manager, { status: 'active' })
      const approved = (await api.get(`/api/staff/${rita}`, manager)).json<StaffAccount>()
      assert.equal(approved.user.status, 'active')
    })

    it('the audit log shows only events about their team', async () => {
      const { events } = (await api.get('/api/audit', admin)).json<AuditPage>()
      assert.ok(events.some((event) => event.account?.id === theirs))
      // Gestor de equipe has no audit.view.
      assert.equal((await api.get('/api/audit', manager)).statusCode, 403)
      await api.database.db
        .insertInto('role_permissions')
        .values({
          role_id: (await api.get('/api/auth/me', manager)).json<MeAnswer>().user.access.roleId,
          permission: 'audit.view',
        })
        .execute()
      const scoped = (await api.get('/api/audit', manager)).json<AuditPage>().events
      assert.ok(scoped.length > 0)
      const team = await api.database.db
        .selectFrom('accounts')
        .select('id')
        .where('team_id', '=', teamA)
        .execute()
      const members = team.map((row) => row.id)
      for (const event of scoped) {
        assert.ok(members.includes(event.account?.id ?? ''), `${event.type} about someone else`)
      }
      const asked = (await api.get(`/api/audit?account=${theirs}`, manager)).json<AuditPage>()
      assert.deepEqual(asked.events, [])
    })
  })

  it('the list filters by a team id or none; anything else is a 400, never a database error', async () => {
    // 36 hex digits and dashes that are no UUID: PostgreSQL's uuid column refused it with a 500.
    for (const teamId of [
      'BB--ccb--aBeF-7CAae5E--cEeB-F3de-6A9',
      '{abcdef01-2345-6789-abcd-ef0123456789}',
    ]) {
      const answer = await api.get(`/api/staff?teamId=${encodeURIComponent(teamId)}`, admin)
      assert.equal(answer.statusCode, 400, answer.body)
      assert.equal(errorOf(answer).code, 'invalid_input')
    }
    const none = await api.get('/api/staff?teamId=none', admin)
    assert.equal(none.statusCode, 200, none.body)
  })

  it('deleting a team of a thousand people takes each out, a hundred at a time on SQLite, and the log counts them', async () => {
    const team = (await ok<TeamAnswer>('POST', '/api/teams', { name: 'Expedição' })).team.id
    const people = Array.from({ length: 1_050 }, (_, index) => ({
      id: crypto.randomUUID(),
      ...nameColumns(`Pessoa da Expedição ${index}`),
      email: `expedicao${index}@example.com`,
      password_hash: 'x',
      ...roleColumns(BUILT_IN_ROLE_IDS.staff),
      status: 'active' as const,
      team_id: team,
    }))
    for (let start = 0; start < people.length; start += 200) {
      await api.database.db
        .insertInto('accounts')
        .values(people.slice(start, start + 200))
        .execute()
    }
    let answer: Awaited<ReturnType<ApiFixture['call']>> | undefined
    const turns = await turnsDuring(async () => {
      answer = await api.call('DELETE', `/api/teams/${team}`, admin)
    })
    assert.equal(answer?.statusCode, 204, answer?.body)
    const left = await api.database.db
      .selectFrom('accounts')
      .select(['team_id', (eb) => eb.fn.countAll<number | string>().as('count')])
      .where(
        'id',
        'in',
        people.map((person) => person.id),
      )
      .groupBy('team_id')
      .execute()
    assert.deepEqual(
      left.map((row) => ({ team: row.team_id, count: Number(row.count) })),
      [{ team: null, count: 1_050 }],
    )
    const deleted = await api.database.db
      .selectFrom('audit_events')
      .select('details')
      .where('type', '=', 'team_deleted')
      .orderBy('at', 'desc')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow()
    assert.deepEqual(JSON.parse(deleted.details), { name: 'Expedição', members: 1_050 })
    // On SQLite a statement holds the event loop: between the eleven statements that move them,
    // it turns (server/roles/team-store.ts). The team's foreign key moved them all in one.
    if (api.database.engine === 'sqlite') assert.ok(turns >= 10, `${turns} turns`)
  })

  it('on SQLite, a team’s people leave it in transactions of a hundred, each committed, before it is deleted', async (t) => {
    if (api.database.engine !== 'sqlite') return t.skip('PostgreSQL moves them in the delete')
    const team = (await ok<TeamAnswer>('POST', '/api/teams', { name: 'Armazém' })).team.id
    const people = Array.from({ length: 250 }, (_, index) => ({
      id: crypto.randomUUID(),
      ...nameColumns(`Pessoa do Armazém ${index}`),
      email: `armazem${index}@example.com`,
      password_hash: 'x',
      ...roleColumns(BUILT_IN_ROLE_IDS.staff),
      status: 'active' as const,
      team_id: team,
    }))
    await api.database.db.insertInto('accounts').values(people).execute()
    // What another request reads of the team while it is being deleted. In one transaction (the
    // COMMIT of a team of 11,975 held the loop 113-265 ms: roles/team-store.ts) it read all of
    // them, then none.
    const seen = new Set<number>()
    let finished = false
    const deletion = api
      .call('DELETE', `/api/teams/${team}`, admin)
      .finally(() => (finished = true))
    while (!finished) {
      const { count } = await api.database.db
        .selectFrom('accounts')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('team_id', '=', team)
        .executeTakeFirstOrThrow()
      seen.add(Number(count))
      await new Promise((resolve) => setImmediate(resolve))
    }
    assert.equal((await deletion).statusCode, 204)
    assert.ok(
      [...seen].some((count) => count > 0 && count < 250),
      `seen: ${[...seen].join(', ')}`,
    )
    const deleted = await api.database.db
      .selectFrom('audit_events')
      .select('details')
      .where('type', '=', 'team_deleted')
      .orderBy('at', 'desc')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow()
    assert.deepEqual(JSON.parse(deleted.details), { name: 'Armazém', members: 250 })
    assert.deepEqual(await teamDeletionEvents('Armazém'), [
      ['team_deletion_started', { name: 'Armazém', members: 250 }],
      ['team_deleted', { name: 'Armazém', members: 250 }],
    ])
  })

  it('on SQLite, a team’s deletion that fails half way has logged that it began, with everyone the team had', async (t) => {
    if (api.database.engine !== 'sqlite')
      return t.skip('PostgreSQL deletes a team in one transaction')
    const team = (await ok<TeamAnswer>('POST', '/api/teams', { name: 'Depósito' })).team.id
    await api.database.db
      .insertInto('accounts')
      .values(
        Array.from({ length: 250 }, (_, index) => ({
          id: crypto.randomUUID(),
          ...nameColumns(`Pessoa do Depósito ${index}`),
          email: `deposito${index}@example.com`,
          password_hash: 'x',
          ...roleColumns(BUILT_IN_ROLE_IDS.staff),
          status: 'active' as const,
          team_id: team,
        })),
      )
      .execute()
    // The disk fails once a hundred have left (the second step).
    await sql`create trigger fail_half_way before update of team_id on accounts
      when (select count(*) from accounts where team_id = ${sql.lit(team)}) <= 150
      begin select raise(abort, 'disk I/O error'); end`.execute(api.database.db)
    try {
      const failed = await api.call('DELETE', `/api/teams/${team}`, admin)
      assert.ok(failed.statusCode >= 500, `${failed.statusCode}`)
    } finally {
      await sql`drop trigger fail_half_way`.execute(api.database.db)
    }
    assert.deepEqual(await teamDeletionEvents('Depósito'), [
      ['team_deletion_started', { name: 'Depósito', members: 250 }],
    ])
    // Tried again: it begins again with those still in the team.
    assert.equal((await api.call('DELETE', `/api/teams/${team}`, admin)).statusCode, 204)
    assert.deepEqual(await teamDeletionEvents('Depósito'), [
      ['team_deletion_started', { name: 'Depósito', members: 250 }],
      ['team_deletion_started', { name: 'Depósito', members: 150 }],
      ['team_deleted', { name: 'Depósito', members: 150 }],
    ])
  })

  it('an Equipe person reads roles and teams but changes nothing', async () => {
    const person = await api.person('equipe')
    assert.equal((await api.get('/api/roles', person.token)).statusCode, 200)
    for (const [method, url] of [
      ['POST', '/api/teams'],
      ['POST', '/api/roles'],
      ['GET', '/api/staff'],
    ] as const) {
      const answer = await api.call(method, url, person.token, { name: 'X' })
      assert.equal(answer.statusCode, 403, `${method} ${url}`)
    }
  })
})
