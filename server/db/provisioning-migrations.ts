import { sql } from 'kysely'
import type { PortableMigration } from './portable-sql'

/**
 * Issue 46, provisioning from the organisation's directory (SCIM 2.0: features/provisioning/,
 * docs/provisioning.md). Kept apart from migrations.ts, which lists them after its own; the same
 * rules hold: never edit one that has shipped, add the next at the end.
 */
export const provisioningMigrations: Record<string, PortableMigration> = {
  /**
   * - accounts.scim_external_id: the directory's own id of the person (Entra's object id, Okta's
   *   user id), null until a directory sets it.
   * - accounts.scim_provisioned: the directory created the account. Only such an account's
   *   e-mail may be changed through SCIM: a token must not rename an admin's address to one its
   *   holder reads and then recover the password.
   * - accounts.scim_removed_at: the directory deleted the person (DELETE /Users/:id): the
   *   account stays, disabled, out of SCIM's sight; anonymising is an admin's act.
   * - teams.scim_external_id, teams.updated_at (meta.lastModified): the same for Groups. A column
   *   added to a table with rows cannot default to the clock on SQLite, so it is filled from
   *   created_at and written by every change that knows of it.
   * - scim_tokens: the provisioning tokens; the token's SHA-256 only (accounts/tokens.ts).
   */
  '2026-11-30-4601-provisioning': {
    async up(db, t) {
      await db.schema.alterTable('accounts').addColumn('scim_external_id', 'text').execute()
      await db.schema
        .alterTable('accounts')
        .addColumn('scim_provisioned', t.boolean, (column) => column.notNull().defaultTo(t.false))
        .execute()
      await db.schema.alterTable('accounts').addColumn('scim_removed_at', t.timestamp).execute()
      await db.schema.alterTable('teams').addColumn('scim_external_id', 'text').execute()
      await db.schema.alterTable('teams').addColumn('updated_at', t.timestamp).execute()
      await sql`update teams set updated_at = created_at`.execute(db)
      await db.schema
        .createIndex('accounts_scim_external_id')
        .on('accounts')
        .column('scim_external_id')
        .execute()
      await db.schema
        .createTable('scim_tokens')
        .addColumn('id', t.uuid, (column) => column.primaryKey())
        .addColumn('name', 'text', (column) => column.notNull())
        .addColumn('token_hash', 'text', (column) => column.notNull().unique())
        .addColumn('created_at', t.timestamp, (column) => column.notNull())
        .addColumn('last_used_at', t.timestamp)
        .addColumn('created_by', t.uuid)
        .addColumn('created_by_name', 'text', (column) => column.notNull())
        .execute()
    },
  },
}

/** Written after issue 42's later ones: migrations.ts puts them after those. */
export const laterProvisioningMigrations: Record<string, PortableMigration> = {
  /**
   * The Users a directory may read (not deleted by it), in the order of their pages (creation,
   * then id): GET /scim/v2/Users counts them and skips to its page along this index alone
   * (features/provisioning/scim-users.ts, listUsers). Both read the whole table at 100k people:
   * the count 83 ms and a page from startIndex 99,901 140 ms more, on SQLite, the loop held. And
   * a Group's members, from an index that holds what the Group says of each (scim-groups.ts,
   * membersOf), read for every GET and every PATCH of it: a team of 11,975 took 41 ms from the
   * team's index and the table, 2 ms from this one. By hand, on the data npm run bench --
   * --only scale seeds.
   */
  '2026-12-02-4602-scim-user-pages': {
    async up(db) {
      await sql`create index accounts_scim_listed on accounts (created_at, id)
        where scim_removed_at is null`.execute(db)
      await sql`create index accounts_scim_members on accounts (team_id, id, name)
        where scim_removed_at is null`.execute(db)
    },
  },
}
