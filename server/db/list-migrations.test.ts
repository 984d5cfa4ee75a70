import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { sql } from 'kysely'
import { BUILT_IN_ROLE_IDS } from '../../common/permissions'
import { nameColumns } from './name-columns'
import { newEventId } from '../audit-log/event-id'
import { roleColumns } from './role-columns'
import { searchTerms } from '../features/staff/staff-search'
import { migrate } from './database'
import { testStoreName, unmigratedTestDatabaseForFile } from '../test/test-database'

/**
 * Issue 42's migrations (list-migrations.ts) on a database that has rows already, as at the first
 * start after an upgrade: each account gets its last sign-in from the log, the tallies count what
 * is there, Início's days hold the sign-ins of the days it shows, and the search index holds the
 * accounts that were there before it.
 */
const store = unmigratedTestDatabaseForFile()

describe(`issue 42's migrations on existing rows (${testStoreName()})`, () => {
  it('back-fills last sign-ins, tallies, sign-in days and the search index', async () => {
    await store.migrateTo('2026-11-28-2801-provider-link-invitations')
    const team = crypto.randomUUID()
    await store.db
      .insertInto('teams')
      .values({ id: team, name: 'Jurídico', name_key: 'jurídico', description: '' })
      .execute()
    const people = [
      { name: 'João Conceição', status: 'active', team },
      { name: 'Maria Assunção', status: 'pending', team: null },
      { name: 'Zé Invited', status: 'active', team, invited: true },
      { name: 'Ana Disabled', status: 'disabled', team: null },
    ] as const
    const ids: string[] = []
    for (const [index, person] of people.entries()) {
      const id = crypto.randomUUID()
      ids.push(id)
      await store.db
        .insertInto('accounts')
        .values({
          id,
          ...nameColumns(person.name),
          email: `pessoa-${index}@example.com`,
          password_hash: 'x',
          ...roleColumns(BUILT_IN_ROLE_IDS.staff),
          status: person.status,
          team_id: person.team,
          invitation_expires_at: 'invited' in person ? new Date(Date.now() + 86_400_000) : null,
        })
        .execute()
    }
    const today = new Date()
    const event = (type: string, accountId: string | null, at: Date) => ({
      id: newEventId(at.getTime()),
      at,
      type,
      account_id: accountId,
      details: '{}',
    })
    const older = new Date(today.getTime() - 3 * 86_400_000)
    const newer = new Date(today.getTime() - 86_400_000)
    const longAgo = new Date(today.getTime() - 200 * 86_400_000)
    await store.db
      .insertInto('audit_events')
      .values([
        event('sign_in', ids[0]!, longAgo),
        event('sign_in', ids[0]!, older),
        event('sign_in', ids[0]!, newer),
        event('sign_in_failed', ids[0]!, newer),
        event('sign_in_failed', null, newer),
        event('signed_out', ids[1]!, newer),
      ])
      .execute()

    await migrate(store.db, store.engine)

    const accounts = await store.db
      .selectFrom('accounts')
      .select(['id', 'last_sign_in_at'])
      .execute()
    const lastOf = (id: string) => accounts.find((row) => row.id === id)?.last_sign_in_at
    assert.equal(new Date(lastOf(ids[0]!)!).toISOString(), newer.toISOString())
    assert.equal(lastOf(ids[1]!), null)

    const tallies = await store.db
      .selectFrom('account_tallies')
      .select(['team_key', 'status', 'count'])
      .where('count', '>', 0)
      .orderBy('status')
      .execute()
    assert.deepEqual(
      tallies.map((row) => [row.team_key, row.status, Number(row.count)]),
      [
        [team, 'active', 1],
        ['', 'disabled', 1],
        [team, 'invited', 1],
        ['', 'pending', 1],
      ],
    )

    const days = await store.db
      .selectFrom('sign_in_days')
      .selectAll()
      .orderBy('day')
      .orderBy('team_key')
      .execute()
    assert.deepEqual(
      days.map((row) => [row.day, row.team_key, Number(row.succeeded), Number(row.failed)]),
      [
        [older.toISOString().slice(0, 10), team, 1, 0],
        [newer.toISOString().slice(0, 10), '', 0, 1],
        [newer.toISOString().slice(0, 10), team, 1, 1],
      ],
      'the days Início shows, by team; not the sign-ins of months ago',
    )

    const search = searchTerms('conceicao', store.engine)!
    const { rows } = await sql<{
      name: string
    }>`select name from accounts where ${search.indexed!}`.execute(store.db)
    assert.deepEqual(
      rows.map((row) => row.name),
      ['João Conceição'],
    )
  })
})
