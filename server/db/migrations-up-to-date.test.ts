import assert from 'node:assert/strict'
import { it } from 'node:test'
import { sql } from 'kysely'
import { migrate } from './database'
import { isUpToDate, migrationProvider } from './migrations'
import { testStoreName, unmigratedTestDatabase } from '../test/test-database'

/**
 * A restart skips Kysely's Migrator when the database has run exactly the migrations this code
 * knows (isUpToDate); a database behind it, or ahead of it, still goes through the Migrator.
 */
it(`tells a database up to date only when it ran exactly the known migrations (${testStoreName()})`, async () => {
  const database = await unmigratedTestDatabase()
  try {
    const { db, engine } = database
    const hasTable = async (name: string) =>
      (await db.introspection.getTables({ withInternalKyselyTables: true })).some(
        (table) => table.name === name,
      )
    assert.equal(await isUpToDate(db), false, 'no migration table yet: a first start')
    const names = Object.keys(await migrationProvider(engine).getMigrations())
    await database.migrateTo(names.at(-2)!)
    assert.equal(await isUpToDate(db), false, 'one migration behind')

    await migrate(db, engine)
    assert.equal(await isUpToDate(db), true)
    // Up to date, migrate() does not run the Migrator, which makes its lock table when missing.
    const recorded = await db.selectFrom('kysely_migration').select('name').execute()
    await sql`drop table kysely_migration_lock`.execute(db)
    await migrate(db, engine)
    assert.deepEqual(await db.selectFrom('kysely_migration').select('name').execute(), recorded)
    assert.equal(await hasTable('kysely_migration_lock'), false, 'the Migrator ran')

    // A database a later version has migrated: not up to date, and refused by the Migrator as
    // before this check (Kysely: a migration it ran is missing from the code).
    await sql`insert into kysely_migration (name, timestamp) values ('2099-01-01-0001-later', '2099-01-01T00:00:00.000Z')`.execute(
      db,
    )
    assert.equal(await isUpToDate(db), false)
    await assert.rejects(migrate(db, engine), /2099-01-01-0001-later/)
  } finally {
    await database.close()
  }
})
