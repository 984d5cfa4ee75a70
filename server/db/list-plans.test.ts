import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { Kysely, PostgresDialect, sql, type CompiledQuery } from 'kysely'
import pg from 'pg'
import type { StaffList, StaffQuery } from '../../common/api/staff'
import { BUILT_IN_ROLE_IDS } from '../../common/permissions'
import { nameColumns } from './name-columns'
import { auditPage } from '../audit-log/audit-query'
import { recordAudit } from '../audit-log/record-audit'
import type { ApiContext } from '../api/api-context'
import { anonymiseAccount } from '../features/account-deletion/anonymise-account'
import { ADMIN_ACCESS } from '../test/sample-roles'
import { listStaff } from '../features/staff/staff-list'
import { listTeams } from '../roles/team-store'
import { listRoles } from '../roles/role-store'
import type { TeamItem } from '../../common/api/roles'
import { listUsers } from '../features/provisioning/scim-users'
import { roleColumns } from './role-columns'
import { migrate } from './database'
import type { Engine } from './portable-sql'
import type { Schema } from './schema'
import { EmbeddedDialect } from './sqlite-dialect'
import { openSqlite } from './sqlite-database'
import { scratchPostgres, testStoreName } from '../test/test-database'

/**
 * The lists read a page from an index (db/list-migrations.ts): every query Equipe and Auditoria
 * run for a page, asked of the engine's planner. None may read a whole table or sort one; a
 * page after a cursor starts in the index at the cursor (a bound, not a filter). The expressions
 * of features/staff/staff-order.ts must be written as the indexes were, or the planner does not
 * match them: this fails when they drift apart.
 *
 * PostgreSQL is asked with sequential scans and sorts discouraged, so that on these few rows it
 * shows the plan it would choose on many: an index it cannot use still shows as a scan.
 */

const engine: Engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite'
let db: Kysely<Schema>
let captured: CompiledQuery[] | null = null
let drop = async () => {}
let explainer: ReturnType<typeof openSqlite> | undefined

before(async () => {
  const log = (event: { level: string; query: CompiledQuery }) => {
    if (captured && event.level === 'query') captured.push(event.query)
  }
  if (engine === 'postgres') {
    const scratch = await scratchPostgres(process.env.TEST_DATABASE_URL!)
    drop = scratch.drop
    db = new Kysely<Schema>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: scratch.url }) }),
      log,
    })
  } else {
    const dir = mkdtempSync(join(tmpdir(), 'painel-plans-'))
    const file = join(dir, 'plans.db')
    db = new Kysely<Schema>({ dialect: new EmbeddedDialect(openSqlite(file)), log })
    // The plans are asked of a connection of their own: after libsql has run an EXPLAIN, the
    // next statements its connection runs stay unfinished as far as SQLite can tell, and that
    // connection's checkpoints then fail ("database table is locked"), as an anonymisation's
    // does (db/forget-deleted-bytes.ts). The server never runs an EXPLAIN.
    explainer = openSqlite(file)
    drop = async () => {
      explainer?.close()
      rmSync(dir, { recursive: true, force: true })
    }
  }
  await migrate(db, engine)
  const teams = [crypto.randomUUID(), crypto.randomUUID()]
  for (const [index, id] of teams.entries()) {
    await db
      .insertInto('teams')
      .values({ id, name: `Time ${index}`, name_key: `time ${index}`, description: '' })
      .execute()
  }
  await db
    .insertInto('accounts')
    .values(
      Array.from({ length: 60 }, (_, index) => ({
        id: crypto.randomUUID(),
        ...nameColumns(`Pessoa ${index % 7}`),
        email: `p${index}@planos.example.com`,
        password_hash: 'x',
        ...roleColumns(index % 10 === 0 ? BUILT_IN_ROLE_IDS.admin : BUILT_IN_ROLE_IDS.staff),
        status: index % 5 === 0 ? ('pending' as const) : ('active' as const),
        team_id: index % 3 === 0 ? null : teams[index % 2]!,
        last_sign_in_at: index % 4 === 0 ? null : new Date(Date.now() - index * 60_000),
        invitation_expires_at: index % 5 === 1 ? new Date(Date.now() + 86_400_000) : null,
      })),
    )
    .execute()
  const ids = await db.selectFrom('accounts').select('id').execute()
  await db
    .insertInto('totp_factors')
    .values(
      ids
        .filter((_, index) => index % 2 === 0)
        .map(({ id }) => ({
          account_id: id,
          secret: 'x',
          created_at: new Date(),
          confirmed_at: new Date(),
          last_step: null,
        })),
    )
    .execute()
  teamId = teams[0]!
})
after(async () => {
  await db.destroy()
  await drop()
})
let teamId = ''

/** The queries a call runs that read its page, with their plans. */
async function plansOf(run: () => Promise<unknown>, table: 'accounts' | 'audit_events') {
  captured = []
  await run()
  const queries = captured.filter(
    (query) =>
      new RegExp(`from "?${table}"?`).test(query.sql) &&
      /order by/i.test(query.sql) &&
      !/^\s*(insert|update|delete)/i.test(query.sql),
  )
  captured = null
  assert.ok(queries.length > 0, 'the call read its page')
  const plans: string[] = []
  for (const query of queries) plans.push(await planOf(query, { sorts: false }))
  return plans
}

/**
 * The engine's plan of a query, as text. On PostgreSQL, sequential scans are discouraged, and
 * sorts too unless `sorts` (see the top of this file).
 */
async function planOf(query: CompiledQuery, { sorts }: { sorts: boolean }): Promise<string> {
  if (engine === 'sqlite') {
    const rows = explainer!.prepare(`explain query plan ${query.sql}`).all(query.parameters) as {
      detail: string
    }[]
    return rows.map((row) => row.detail).join('\n')
  }
  return db.connection().execute(async (connection) => {
    await sql`set enable_seqscan = off`.execute(connection)
    if (!sorts) await sql`set enable_sort = off`.execute(connection)
    try {
      const { rows } = await connection.executeQuery<{ 'QUERY PLAN': string }>({
        ...query,
        sql: `explain ${query.sql}`,
      })
      return rows.map((row) => row['QUERY PLAN']).join('\n')
    } finally {
      await sql`reset enable_seqscan`.execute(connection)
      await sql`reset enable_sort`.execute(connection)
    }
  })
}

/**
 * No plan reads the table or sorts it; with `bounded`, the first (the cursor's segment; a page
 * may go on into the next segment, read from its start) starts at the cursor.
 */
function assertFromIndex(plans: string[], table: string, bounded: boolean) {
  for (const [index, plan] of plans.entries()) {
    bounded &&= index === 0
    if (engine === 'sqlite') {
      assert.doesNotMatch(plan, /USE TEMP B-TREE FOR (ORDER BY|RIGHT PART OF ORDER BY)/, plan)
      assert.doesNotMatch(plan, new RegExp(`SCAN ${table}(?! USING)`), plan)
      if (bounded)
        assert.match(
          plan,
          new RegExp(`SEARCH ${table} USING (COVERING )?INDEX \\w+ \\(.*[<>]`),
          plan,
        )
    } else {
      assert.doesNotMatch(plan, /(^|\s)Sort(\s|$)/m, plan)
      assert.doesNotMatch(plan, new RegExp(`Seq Scan on ${table}`), plan)
      if (bounded) assert.match(plan, /Index Cond: .*ROW\(/, plan)
    }
  }
}

const staff = (query: StaffQuery) => listStaff(db, query, ADMIN_ACCESS)

describe(`the lists' queries read their page from an index (${testStoreName()})`, () => {
  const queries: [string, StaffQuery][] = [
    ['the default order', {}],
    ['by name', { sort: 'name' }],
    ['by name, reversed', { sort: '-name' }],
    ['by creation', { sort: 'createdAt' }],
    ['newest first', { sort: '-createdAt' }],
    ['by last sign-in', { sort: 'lastSignInAt' }],
    ['latest sign-in first', { sort: '-lastSignInAt' }],
    ['pending ones', { status: 'pending' }],
    ['invited ones', { status: 'invited' }],
    ['a role', { roleId: BUILT_IN_ROLE_IDS.admin }],
    ['no team', { teamId: 'none' }],
    ['with a second factor', { mfa: 'true' }],
    // A filter that keeps many, in a sort of its own: along the sort's index, the filter checked
    // on the way (features/staff/staff-list.ts, alongTheOrder), not the filter's index and a sort.
    ['the active ones by creation', { status: 'active', sort: 'createdAt' }],
    ['a role by name', { roleId: BUILT_IN_ROLE_IDS.staff, sort: 'name' }],
    ['with a second factor, latest sign-in first', { mfa: 'true', sort: '-lastSignInAt' }],
    // A search reads its window along the order (features/staff/staff-list.ts, windowPage).
    ['a search', { q: 'pessoa' }],
    ['a search by name', { q: 'pessoa', sort: 'name' }],
  ]
  for (const [label, query] of queries) {
    it(`Equipe, ${label}: the first page, the next one and the last`, async () => {
      const small = { ...query, pageSize: '4' }
      let first: StaffList | undefined
      assertFromIndex(
        await plansOf(async () => (first = await staff(small)), 'accounts'),
        'accounts',
        false,
      )
      assert.ok(first?.next, 'a next page')
      assertFromIndex(
        await plansOf(() => staff({ ...small, after: first!.next! }), 'accounts'),
        'accounts',
        true,
      )
      assertFromIndex(
        await plansOf(() => staff({ ...small, page: 'last' }), 'accounts'),
        'accounts',
        false,
      )
    })
  }

  // page=n, for older callers: an offset on the page's own read made every skipped row whole
  // (its lock, its role and team): 349 ms on SQLite for page 4,999 of 100k people.
  for (const [label, query] of [
    ['the default order (pending ones first)', {}],
    ['newest first', { sort: '-createdAt' }],
    ['a search by name', { q: 'pessoa', sort: 'name' }],
    ['the active ones', { status: 'active' }],
  ] as [string, StaffQuery][]) {
    it(`Equipe, ${label}: page n skips along the order's index, and is the page the cursors reach`, async () => {
      const small = { ...query, pageSize: '5' }
      let reached = await staff(small)
      for (let page = 2; page <= 4; page += 1) {
        reached = await staff({ ...small, after: reached.next! })
        captured = []
        const numbered = await staff({ ...small, page: String(page) })
        const read = captured
        captured = null
        assert.deepEqual(
          numbered.items.map((item) => item.id),
          reached.items.map((item) => item.id),
          `page ${page}`,
        )
        assert.equal(numbered.page, page)
        // The page's rows (with their lock) are read from the page's first row, never skipped to.
        const rowReads = read.filter((each) => /sign_in_limits/.test(each.sql))
        assert.ok(rowReads.length > 0, 'the page was read')
        for (const each of rowReads)
          if (/offset/i.test(each.sql)) assert.equal(each.parameters.at(-1), 0, each.sql)
      }
      assertFromIndex(
        await plansOf(() => staff({ ...small, page: '4' }), 'accounts'),
        'accounts',
        false,
      )
    })
  }

  it('Equipe, a rare search: its few matches are looked up in the search index and sorted, not sought along the order', async () => {
    for (const sort of ['name', '-createdAt'] as const) {
      captured = []
      const list = await staff({ q: 'p17@planos', sort, pageSize: '4' })
      // The page's own read (by name on SQLite, the index's name keys are sorted first).
      const lookups = captured.filter((each) =>
        engine === 'sqlite'
          ? /account_search_index match/.test(each.sql) &&
            /order by/i.test(each.sql) &&
            /"accounts"\."id"/.test(each.sql)
          : /offset 0\) as found/.test(each.sql),
      )
      captured = null
      assert.deepEqual(
        list.items.map((item) => item.email),
        ['p17@planos.example.com'],
      )
      assert.equal(lookups.length, 1, 'the matches were looked up')
      const plan = await planOf(lookups[0]!, { sorts: true })
      if (engine === 'sqlite') {
        assert.match(plan, /SCAN account_search_index VIRTUAL TABLE/, plan)
        assert.doesNotMatch(plan, /accounts_order/, plan)
        // Its matches looked up by id: first, as a table of their own, or as the IN of the read.
        if (/CO-ROUTINE accounts/.test(plan))
          assert.match(
            plan,
            /SEARCH accounts USING INDEX sqlite_autoindex_accounts_1 \(id=\?\)/,
            plan,
          )
        else assert.doesNotMatch(plan, /SCAN accounts(?! USING)/, plan)
      } else {
        assert.match(plan, /accounts_search/, plan)
        assert.doesNotMatch(plan, /accounts_order/, plan)
      }
    }
  })

  it('Equipe, a team', async () => {
    assertFromIndex(
      await plansOf(() => staff({ teamId, pageSize: '4' }), 'accounts'),
      'accounts',
      false,
    )
  })

  // SQLite: a search's window is read along a name order's index, and its LIKE on the e-mail is
  // answered by that index when it holds the e-mail; without it, every account of the window is
  // read from the table (1,961 pages against 80 for "joao" among the active at 100k people,
  // db/list-migrations.ts, 4210). PostgreSQL reads the row before it filters it, index or not.
  it('Equipe, a search within a filter: its window is read from an index that holds the e-mail (SQLite)', async (t) => {
    if (engine !== 'sqlite') return t.skip('PostgreSQL checks the row whatever the index holds')
    for (const query of [
      { q: 'pessoa' },
      { q: 'pessoa', status: 'active' },
      { q: 'pessoa', roleId: BUILT_IN_ROLE_IDS.staff },
      { q: 'pessoa', teamId },
      { q: 'pessoa', mfa: 'true' },
    ] satisfies StaffQuery[]) {
      const first = await staff({ ...query, pageSize: '4' })
      for (const page of [{}, { after: first.next! }]) {
        const plans = await plansOf(() => staff({ ...query, pageSize: '4', ...page }), 'accounts')
        // The window's read (a look-up of matches by id is none).
        const indexes = plans.flatMap((plan) =>
          [...plan.matchAll(/SEARCH accounts USING (?:COVERING )?INDEX (accounts_\w+)/g)].map(
            (match) => match[1]!,
          ),
        )
        assert.ok(indexes.length > 0, `${JSON.stringify(query)}: read along an index`)
        for (const index of indexes) {
          const { rows } = await sql<{ name: string }>`select name
            from pragma_index_info(${index})`.execute(db)
          assert.ok(
            rows.some((column) => column.name === 'email'),
            `${JSON.stringify(query)}: ${index} holds the e-mail`,
          )
        }
      }
    }
  })

  it('Equipe, locked: a page of the locked accounts is read along its order among them alone', async () => {
    const later = new Date(Date.now() + 3_600_000)
    const emails = ['p7@planos.example.com', 'p23@planos.example.com', 'p41@planos.example.com']
    await db
      .insertInto('sign_in_limits')
      .values(
        emails.map((email) => ({
          key: `account:${email}`,
          account: email,
          count: 10,
          window_ends_at: later,
          blocked_until: later,
        })),
      )
      .execute()
    // As autovacuum would: PostgreSQL's figures on the locked accounts' indexes (how few they
    // hold) come from an ANALYZE.
    if (engine === 'postgres') await sql`analyze accounts`.execute(db)
    try {
      for (const query of [
        {},
        { sort: 'name' as const },
        { sort: '-createdAt' as const },
        { sort: 'lastSignInAt' as const },
      ]) {
        captured = []
        const list = await staff({ ...query, locked: 'true' })
        const page = captured.filter(
          (each) => /from "?accounts"?/.test(each.sql) && /order by/i.test(each.sql),
        )
        captured = null
        assert.deepEqual(list.items.map((item) => item.email).sort(), [...emails].sort())
        assert.ok(page.length > 0, 'the page was read')
        for (const read of page) {
          // Sorts discouraged, as for the other lists: the index of the order over the locked
          // accounts alone (db/list-migrations.ts), never the order's index over everyone.
          const plan = await planOf(read, { sorts: false })
          assert.doesNotMatch(plan, /accounts_order|SCAN accounts(?! USING)|TEMP B-TREE/, plan)
          assert.match(plan, /accounts_locked_/, plan)
        }
      }
    } finally {
      await db.deleteFrom('sign_in_limits').where('account', 'in', emails).execute()
    }
  })

  it('Auditoria: a deep page starts at its cursor, by date, person or type', async () => {
    const at = new Date()
    const cursor = `${at.toISOString()}~${crypto.randomUUID()}`
    const person = crypto.randomUUID()
    for (const filters of [
      { before: cursor },
      { before: cursor, account: person },
      { before: cursor, actor: person },
      { before: cursor, type: 'sign_in' as const },
      { before: cursor, from: new Date(at.getTime() - 86_400_000).toISOString() },
    ]) {
      assertFromIndex(
        await plansOf(() => auditPage(db, filters, ADMIN_ACCESS), 'audit_events'),
        'audit_events',
        true,
      )
    }
  })

  it('Papéis: each role is counted from the tallies, never by reading its people', async () => {
    captured = []
    const roles = await listRoles(db)
    const queries = captured
    captured = null
    assert.ok(
      queries.every((query) => !/from "?accounts"?/.test(query.sql)),
      queries.map((query) => query.sql).join('\n'),
    )
    const counted = await db
      .selectFrom('accounts')
      .select(['role_id', (eb) => eb.fn.countAll<number | string>().as('people')])
      .groupBy('role_id')
      .execute()
    for (const role of roles) {
      const row = counted.find((count) => count.role_id === role.id)
      assert.equal(role.peopleCount, Number(row?.people ?? 0), role.name)
    }
    assert.ok(roles.some((role) => role.peopleCount > 0))
  })

  it('Times: each team is counted from the tallies, and its first managers read along its name order', async () => {
    const role = crypto.randomUUID()
    await db
      .insertInto('roles')
      .values({
        id: role,
        name: 'Gestão de planos',
        name_key: 'gestão de planos',
        description: '',
        scope: 'team',
      })
      .execute()
    await db
      .insertInto('role_permissions')
      .values(
        (['staff.view', 'staff.approve'] as const).map((permission) => ({
          role_id: role,
          permission,
        })),
      )
      .execute()
    const managers = Array.from({ length: 7 }, (_, index) => ({
      id: crypto.randomUUID(),
      ...nameColumns(`Gestora ${String.fromCharCode(71 - index)}`),
      email: `gestora${index}@planos.example.com`,
      password_hash: 'x',
      ...roleColumns(role),
      status: 'active' as const,
      team_id: teamId,
    }))
    await db.insertInto('accounts').values(managers).execute()
    try {
      let teams: TeamItem[] = []
      const plans = await plansOf(async () => (teams = await listTeams(db)), 'accounts')
      assertFromIndex(plans, 'accounts', false)
      // Straight to the team's managers: along the team's name order, a team with few of them
      // is read whole (migration 4213).
      for (const plan of plans) assert.match(plan, /accounts_team_role_order/, plan)
      const team = teams.find((item) => item.id === teamId)!
      assert.equal(team.managerCount, 7)
      assert.deepEqual(
        team.managers.map((manager) => manager.name),
        ['Gestora A', 'Gestora B', 'Gestora C', 'Gestora D', 'Gestora E'],
      )
      const { members } = await db
        .selectFrom('accounts')
        .select((eb) => eb.fn.countAll<number | string>().as('members'))
        .where('team_id', '=', teamId)
        .executeTakeFirstOrThrow()
      assert.equal(team.memberCount, Number(members))
    } finally {
      await db
        .deleteFrom('accounts')
        .where(
          'id',
          'in',
          managers.map((manager) => manager.id),
        )
        .execute()
      await db.deleteFrom('roles').where('id', '=', role).execute()
    }
  })

  it('Anonymisation: the events that name the person or quote their address are found from indexes, not by reading the log', async () => {
    const [admin, person] = ['anonimiza-admin', 'anonimizada'].map((who) => ({
      id: crypto.randomUUID(),
      ...nameColumns(`Pessoa ${who}`),
      email: `${who}@planos.example.com`,
      password_hash: 'x',
      status: 'active' as const,
    }))
    await db
      .insertInto('accounts')
      .values([
        { ...admin!, ...roleColumns(BUILT_IN_ROLE_IDS.admin) },
        { ...person!, ...roleColumns(BUILT_IN_ROLE_IDS.staff) },
      ])
      .execute()
    const party = { id: person!.id, name: person!.name, email: person!.email }
    await recordAudit(db, { type: 'sign_in', actor: party, account: party })
    // Tried with the address by someone else: an event that is not the person's.
    await recordAudit(db, {
      type: 'sign_in_failed',
      details: { method: 'password', email: person!.email.toUpperCase() },
    })
    const actor = await db
      .selectFrom('accounts')
      .selectAll()
      .where('id', '=', admin!.id)
      .executeTakeFirstOrThrow()
    captured = []
    await anonymiseAccount(
      { db, now: () => new Date(), log: { warn() {} } as unknown as ApiContext['log'] },
      actor,
      person!.id,
      { ip: null, userAgent: null },
    )
    const queries = captured.filter((query) => /"?audit_event/.test(query.sql))
    captured = null
    const quoting = await db
      .selectFrom('audit_events')
      .select('details')
      .where('type', '=', 'sign_in_failed')
      .where('account_id', 'is', null)
      .execute()
    assert.ok(
      quoting.some((row) => row.details.includes('@anonimizado.invalid')),
      'the failed sign-in quoting the address was found and scrubbed',
    )
    assert.ok(queries.length >= 5, 'the anonymisation read and wrote the log')
    for (const query of queries) {
      if (/^\s*insert/i.test(query.sql)) continue
      const plan = await planOf(query, { sorts: true })
      if (engine === 'sqlite') {
        assert.doesNotMatch(plan, /SCAN audit_event/, `${query.sql}\n${plan}`)
      } else {
        assert.doesNotMatch(plan, /Seq Scan on audit_event/, `${query.sql}\n${plan}`)
      }
    }
  })

  it('SCIM Users: the total is every account less the few the directory deleted, not a count of the rest', async () => {
    const removed = await db
      .updateTable('accounts')
      .set({ scim_removed_at: new Date() })
      .where('email', 'in', ['p1@planos.example.com', 'p2@planos.example.com'])
      .executeTakeFirst()
    assert.equal(Number(removed.numUpdatedRows), 2)
    const page = { startIndex: 1, count: 3, offset: 0 }
    captured = []
    const listed = await listUsers(db, undefined, page, 'https://painel.example/scim/v2')
    const queries = captured
    captured = null
    const { seen } = await db
      .selectFrom('accounts')
      .select((eb) => eb.fn.countAll<number | string>().as('seen'))
      .where('scim_removed_at', 'is', null)
      .executeTakeFirstOrThrow()
    assert.equal(listed.total, Number(seen))
    const count = queries.find((query) => /account_tallies/.test(query.sql))
    assert.ok(count, 'the total comes from the tallies')
    const plan = await planOf(count, { sorts: true })
    if (engine === 'sqlite') {
      assert.doesNotMatch(plan, /SCAN accounts/, plan)
      assert.match(plan, /SEARCH accounts USING COVERING INDEX accounts_scim_removed/, plan)
    } else {
      assert.match(plan, /Index Only Scan using accounts_scim_removed/, plan)
    }
  })
})
