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

  /**
   * The audit log, and when each admin was last mailed about new registrations. Portable on
   * purpose (text and integer only, no database defaults): times are ISO 8601 UTC strings from
   * `Date.toISOString()`, which sort as text in the order of time; details are JSON as text. No
   * foreign keys: an event outlives the account it names (a refused registration is deleted).
   */
  '2026-11-22-0100-audit-events': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('audit_events')
        .addColumn('id', 'text', (column) => column.primaryKey())
        .addColumn('at', 'text', (column) => column.notNull())
        .addColumn('type', 'text', (column) => column.notNull())
        .addColumn('actor_id', 'text')
        .addColumn('actor_name', 'text')
        .addColumn('actor_email', 'text')
        .addColumn('account_id', 'text')
        .addColumn('account_name', 'text')
        .addColumn('account_email', 'text')
        .addColumn('ip', 'text')
        .addColumn('user_agent', 'text')
        .addColumn('details', 'text', (column) => column.notNull())
        .execute()
      await db.schema
        .createIndex('audit_events_at')
        .on('audit_events')
        .columns(['at', 'id'])
        .execute()
      await db.schema
        .createIndex('audit_events_account')
        .on('audit_events')
        .columns(['account_id', 'type', 'at'])
        .execute()
      await db.schema
        .createIndex('audit_events_actor')
        .on('audit_events')
        .columns(['actor_id', 'at'])
        .execute()
      await db.schema
        .createIndex('audit_events_type')
        .on('audit_events')
        .columns(['type', 'at'])
        .execute()

      await db.schema
        .createTable('registration_notices')
        .addColumn('admin_id', 'text', (column) => column.primaryKey())
        .addColumn('last_sent_at', 'text', (column) => column.notNull())
        .addColumn('covered_until', 'text', (column) => column.notNull())
        .execute()
    },
  },
}

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
}
