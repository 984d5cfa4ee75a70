import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { migrate } from './database'
import {
  insertAccountsWithoutSortKeys,
  testStoreName,
  unmigratedTestDatabaseForFile,
} from '../test/test-database'

/**
 * The 0400 migration: accounts invited before it, and never signed in nor given a password,
 * become invitations (7 days from when they were invited); everyone else stays as they were.
 */
const store = unmigratedTestDatabaseForFile()

describe(`the pending-invitations migration (${testStoreName()})`, () => {
  it('turns invited accounts nobody took up into invitations, and nothing else', async () => {
    await store.migrateTo('2026-11-25-0300-mail-outbox')
    const invitedAt = new Date('2026-11-20T10:00:00.000Z')
    const [never, tookUp, signedUp] = (await insertAccountsWithoutSortKeys(
      store.db,
      ['never', 'took-up', 'signed-up'].map((label) => ({
        name: label,
        email: `${label}@example.com`,
      })),
    )) as [string, string, string]
    const event = (accountId: string, type: string, at: Date) => ({
      id: crypto.randomUUID(),
      at,
      type,
      account_id: accountId,
      details: '{}',
    })
    await store.db
      .insertInto('audit_events')
      .values([
        event(never, 'invited', invitedAt),
        event(tookUp, 'invited', invitedAt),
        event(tookUp, 'password_reset', new Date('2026-11-21T10:00:00.000Z')),
        event(signedUp, 'registered', invitedAt),
      ])
      .execute()

    await migrate(store.db, store.engine)

    const rows = await store.db
      .selectFrom('accounts')
      .select(['id', 'invitation_expires_at'])
      .execute()
    const expiry = (id: string) => rows.find((row) => row.id === id)?.invitation_expires_at
    assert.equal(new Date(expiry(never)!).toISOString(), '2026-11-27T10:00:00.000Z')
    assert.equal(expiry(tookUp), null)
    assert.equal(expiry(signedUp), null)
  })
})
