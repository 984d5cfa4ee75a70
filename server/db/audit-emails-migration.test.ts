import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { newEventId } from '../audit-log/event-id'
import { migrate } from './database'
import { testStoreName, unmigratedTestDatabaseForFile } from '../test/test-database'

/**
 * Migration 4212 (list-migrations.ts) on a log that has events already, as at the first start
 * after an upgrade: every address the details quote is kept beside its event, across the
 * back-fill's batches of ten thousand, and the events that quote none have no row.
 */
const store = unmigratedTestDatabaseForFile()

describe(`the addresses in the audit log's details, back-filled (${testStoreName()})`, () => {
  it('keeps each quoted address of the events there were, in every batch', async () => {
    await store.migrateTo('2026-12-04-4604-scim-removed-accounts')
    const start = Date.now() - 86_400_000
    const events = Array.from({ length: 10_200 }, (_, index) => {
      const at = new Date(start + index)
      // One in a hundred quotes no address; the others are more than one batch.
      const details =
        index % 100 !== 1
          ? { method: 'password', email: `Tentativa${index}@Exemplo.com` }
          : { method: 'password' }
      return {
        id: newEventId(at.getTime()),
        at,
        type: 'sign_in_failed',
        details: JSON.stringify(details),
      }
    })
    events.push({
      id: newEventId(start + 20_000),
      at: new Date(start + 20_000),
      type: 'email_changed',
      details: JSON.stringify({ from: 'ana@x.com', to: 'anasouza@y.com' }),
    })
    for (let from = 0; from < events.length; from += 1000) {
      await store.db
        .insertInto('audit_events')
        .values(events.slice(from, from + 1000))
        .execute()
    }

    await migrate(store.db, store.engine)

    const rows = await store.db
      .selectFrom('audit_event_emails')
      .select(['email', 'event_id'])
      .execute()
    assert.equal(rows.length, 10_200 - 102 + 2)
    const byEvent = new Map<string, string[]>()
    for (const row of rows)
      byEvent.set(row.event_id, [...(byEvent.get(row.event_id) ?? []), row.email])
    assert.deepEqual(byEvent.get(events[0]!.id), ['tentativa0@exemplo.com'])
    assert.deepEqual(byEvent.get(events[10_199]!.id), ['tentativa10199@exemplo.com'])
    assert.equal(byEvent.get(events[1]!.id), undefined)
    assert.deepEqual(byEvent.get(events.at(-1)!.id)?.sort(), ['ana@x.com', 'anasouza@y.com'])

    // They go with their event.
    await store.db.deleteFrom('audit_events').where('id', '=', events[0]!.id).execute()
    const left = await store.db
      .selectFrom('audit_event_emails')
      .select('event_id')
      .where('email', '=', 'tentativa0@exemplo.com')
      .execute()
    assert.deepEqual(left, [])
  })
})
