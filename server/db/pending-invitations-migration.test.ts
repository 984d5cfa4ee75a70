import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { migrate } from './database'
import { testStoreName, unmigratedTestDatabase } from '../test/test-database'

/**
 * The 0400 migration: accounts invited before it, and never signed in nor given a password,
 * become invitations (7 days from when they were invited); everyone else stays as they were.
 */
let store: Awaited<ReturnType<typeof unmigratedTestDatabase>>
before(async () => {
  store = await unmigratedTestDatabase()
})
after(() => store.close())

describe(`the pending-invitations migration (${testStoreName()})`, () => {
  it('turns invited accounts nobody took up into invitations, and nothing else', async () => {
    await store.migrateTo('2026-11-25-0300-mail-outbox')
    const invitedAt = new Date('2026-11-20T10:00:00.000Z')
    const accounts = ['never', 'took-up', 'signed-up'].map((label) => ({
      id: crypto.randomUUID(),
      name: label,
      email: `${label}@example.com`,
      password_hash: 'x',
      role: 'staff' as const,
      status: 'active' as const,
    }))
    // Kysely's types describe the schema after every migration: the rows are as the 0300 one had
    // (no name_sort_key yet), hence the cast.
    for (const account of accounts)
      await store.db
        .insertInto('accounts')
        .values(account as never)
        .execute()
    const event = (accountId: string, type: string, at: Date) => ({
      id: crypto.randomUUID(),
      at,
      type,
      account_id: accountId,
      details: '{}',
    })
    const [never, tookUp, signedUp] = accounts.map((account) => account.id) as [
      string,
      string,
      string,
    ]
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
