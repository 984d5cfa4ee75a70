import assert from 'node:assert/strict'
import { sql } from 'kysely'
import { after, before, describe, it } from 'node:test'
import type { Account } from '../db/schema'
import type { Database } from '../db/database'
import { HttpError } from '../http/errors'
import { testDatabase, testStoreName } from '../test/test-database'
import { writeAccountChange, removePendingAccount, unlockAccount } from './account-administration'
import { createAccount, findAccountById } from './accounts'
import { SignInLimits, limitKeys } from './sign-in-limits'

let database: Database
before(async () => {
  database = await testDatabase()
})
after(() => database.close())

let serial = 0
async function account(
  role: 'admin' | 'staff',
  status: 'active' | 'pending' | 'disabled' = 'active',
): Promise<Account> {
  serial += 1
  const created = await createAccount(database.db, {
    name: `Pessoa ${serial}`,
    email: `pessoa-${serial}@example.com`,
    passwordHash: 'scrypt$x',
    role,
    status,
  })
  assert.ok(created)
  return created
}

const codeOf = async (promise: Promise<unknown>) => {
  try {
    await promise
    return 'ok'
  } catch (error) {
    assert.ok(error instanceof HttpError, String(error))
    return `${error.statusCode} ${error.code}`
  }
}

const spellings = (id: string) => [id, id.toUpperCase()]

describe(`account administration rules (${testStoreName()})`, () => {
  it('nobody disables, demotes or removes their own account, whatever the spelling of the id', async () => {
    const me = await account('admin')
    for (const id of spellings(me.id)) {
      assert.equal(
        await codeOf(writeAccountChange(database.db, me, id, { status: 'disabled' })),
        '400 own_account',
      )
      assert.equal(
        await codeOf(writeAccountChange(database.db, me, id, { role: 'staff' })),
        '400 own_account',
      )
      assert.equal(await codeOf(removePendingAccount(database.db, me, id)), '400 own_account')
    }
    assert.equal((await findAccountById(database.db, me.id))?.status, 'active')
  })

  it('no change leaves the panel without an active admin (409 last_admin), however it is asked', async () => {
    await database.db
      .updateTable('accounts')
      .set({ status: 'disabled' })
      .where('role', '=', 'admin')
      .execute()
    const onlyAdmin = await account('admin')
    // An actor that is not itself an active admin: only the invariant stands in the way.
    const actor = await account('staff')
    for (const id of spellings(onlyAdmin.id)) {
      assert.equal(
        await codeOf(writeAccountChange(database.db, actor, id, { status: 'disabled' })),
        '409 last_admin',
      )
      assert.equal(
        await codeOf(writeAccountChange(database.db, actor, id, { role: 'staff' })),
        '409 last_admin',
      )
      assert.equal(
        await codeOf(
          writeAccountChange(database.db, actor, id, { role: 'staff', status: 'active' }),
        ),
        '409 last_admin',
      )
    }
    // With a second active admin, demoting the first is fine.
    const second = await account('admin')
    assert.equal(
      await codeOf(
        writeAccountChange(database.db, actor, onlyAdmin.id.toUpperCase(), { role: 'staff' }),
      ),
      'ok',
    )
    assert.equal(
      await codeOf(writeAccountChange(database.db, actor, second.id, { status: 'disabled' })),
      '409 last_admin',
    )
  })

  // The admins' changes were serialised by locking every active admin's row, with an UPDATE that
  // wrote each of them: 912 rows at a year's size, about 60 ms on SQLite (db/list-migrations.ts,
  // 4211). One lock row does it now.
  it("an admin's change to one person writes that person's row, and no admin's", async () => {
    const admins = [await account('admin'), await account('admin'), await account('admin')]
    const pending = await account('staff', 'pending')
    const db = database.db
    await sql`create table account_writes (id text not null)`.execute(db)
    if (database.engine === 'postgres') {
      await sql`create function record_account_write() returns trigger language plpgsql as $$
        begin insert into account_writes (id) values (new.id); return null; end $$`.execute(db)
      await sql`create trigger record_account_writes after update on accounts
        for each row execute function record_account_write()`.execute(db)
    } else {
      await sql`create trigger record_account_writes after update on accounts
        begin insert into account_writes (id) values (new.id); end`.execute(db)
    }
    try {
      await writeAccountChange(db, admins[0]!, pending.id, { status: 'active' })
      await writeAccountChange(db, admins[0]!, admins[1]!.id, { role: 'staff' })
      const { rows } = await sql<{ id: string }>`select id from account_writes`.execute(db)
      // Each target twice: locked (lockAccount), then changed.
      assert.deepEqual(
        [...new Set(rows.map((row) => row.id))].sort(),
        [pending.id, admins[1]!.id].sort(),
      )
    } finally {
      if (database.engine === 'postgres') {
        await sql`drop trigger record_account_writes on accounts`.execute(db)
        await sql`drop function record_account_write()`.execute(db)
      } else {
        await sql`drop trigger record_account_writes`.execute(db)
      }
      await sql`drop table account_writes`.execute(db)
    }
  })

  it('only a pending registration can be removed', async () => {
    const admin = await account('admin')
    const pending = await account('staff', 'pending')
    const active = await account('staff')
    assert.equal(
      await codeOf(removePendingAccount(database.db, admin, active.id)),
      '409 not_pending',
    )
    assert.equal(
      await codeOf(removePendingAccount(database.db, admin, pending.id.toUpperCase())),
      'ok',
    )
    assert.equal(await findAccountById(database.db, pending.id), undefined)
  })

  it('refuses ids that are not plain UUIDs (400) and unknown ones (404)', async () => {
    const admin = await account('admin')
    const other = await account('staff')
    assert.equal(
      await codeOf(
        writeAccountChange(database.db, admin, `urn:uuid:${other.id}`, { status: 'disabled' }),
      ),
      '400 invalid_input',
    )
    assert.equal(
      await codeOf(
        writeAccountChange(database.db, admin, crypto.randomUUID(), { status: 'disabled' }),
      ),
      '404 not_found',
    )
  })

  it("an admin lifts an account's sign-in waits", async () => {
    const someone = await account('staff')
    const limits = new SignInLimits(database.db)
    const key = limitKeys.account(someone.email)
    for (let i = 0; i < 100; i += 1) await limits.gate([key])
    assert.equal(await limits.isLocked(someone.email), true)
    await unlockAccount(database.db, limits, someone.id.toUpperCase())
    assert.equal(await limits.isLocked(someone.email), false)
  })
})
