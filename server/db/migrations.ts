import { sql, type Kysely, type Migration, type MigrationProvider } from 'kysely'

/**
 * The schema's history, in order. One set for both stores (PGlite and PostgreSQL): both are
 * PostgreSQL. Never edit a migration that has shipped; add the next one.
 */
const migrations: Record<string, Migration> = {
  '2026-11-21-0001-accounts-and-sessions': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('accounts')
        .addColumn('id', 'uuid', (column) => column.primaryKey())
        .addColumn('name', 'text', (column) => column.notNull())
        .addColumn('email', 'text', (column) => column.notNull().unique())
        .addColumn('password_hash', 'text', (column) => column.notNull())
        .addColumn('role', 'text', (column) =>
          column.notNull().check(sql`role in ('admin', 'staff')`),
        )
        .addColumn('status', 'text', (column) =>
          column.notNull().check(sql`status in ('pending', 'active', 'disabled')`),
        )
        .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
        .addColumn('updated_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
        .execute()

      await db.schema
        .createTable('sessions')
        .addColumn('token_hash', 'text', (column) => column.primaryKey())
        .addColumn('account_id', 'uuid', (column) =>
          column.notNull().references('accounts.id').onDelete('cascade'),
        )
        .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
        .addColumn('expires_at', 'timestamptz', (column) => column.notNull())
        .execute()
      await db.schema
        .createIndex('sessions_account_id')
        .on('sessions')
        .column('account_id')
        .execute()
      await db.schema
        .createIndex('sessions_expires_at')
        .on('sessions')
        .column('expires_at')
        .execute()

      await db.schema
        .createTable('password_resets')
        .addColumn('token_hash', 'text', (column) => column.primaryKey())
        .addColumn('account_id', 'uuid', (column) =>
          column.notNull().references('accounts.id').onDelete('cascade'),
        )
        .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
        .addColumn('expires_at', 'timestamptz', (column) => column.notNull())
        .addColumn('used_at', 'timestamptz')
        .execute()
      await db.schema
        .createIndex('password_resets_account_id')
        .on('password_resets')
        .column('account_id')
        .execute()

      await db.schema
        .createTable('auth_throttle')
        .addColumn('key', 'text', (column) => column.primaryKey())
        .addColumn('count', 'integer', (column) => column.notNull())
        .addColumn('window_started_at', 'timestamptz', (column) => column.notNull())
        .execute()
    },
  },

  // Column types as the first migration's, so it ports to portable-sql's t.uuid / t.timestamp.
  '2026-11-22-0002-sign-in-limits-and-trusted-devices': {
    async up(db: Kysely<unknown>) {
      // Failed sign-ins per key (account, account and address, address, device): see
      // auth/sign-in-limits.ts. `account` (the e-mail) lets an admin lift every lock of one account.
      await db.schema
        .createTable('sign_in_limits')
        .addColumn('key', 'text', (column) => column.primaryKey())
        .addColumn('account', 'text')
        .addColumn('count', 'integer', (column) => column.notNull())
        .addColumn('window_ends_at', 'timestamptz', (column) => column.notNull())
        .addColumn('blocked_until', 'timestamptz', (column) => column.notNull())
        .execute()
      await db.schema
        .createIndex('sign_in_limits_account')
        .on('sign_in_limits')
        .column('account')
        .execute()

      // Browsers that signed in to an account before: see auth/trusted-devices.ts.
      await db.schema
        .createTable('trusted_devices')
        .addColumn('token_hash', 'text', (column) => column.primaryKey())
        .addColumn('account_id', 'uuid', (column) =>
          column.notNull().references('accounts.id').onDelete('cascade'),
        )
        .addColumn('expires_at', 'timestamptz', (column) => column.notNull())
        .execute()
      await db.schema
        .createIndex('trusted_devices_account_id')
        .on('trusted_devices')
        .column('account_id')
        .execute()
    },
  },
}

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
}
