import { SqliteAdapter, SqliteDialect, type SqliteDatabase } from 'kysely'

/**
 * Kysely's SQLite dialect, except that migrations run in a transaction: SQLite's DDL is
 * transactional (Kysely's adapter says no only to be safe), so a migration that fails halfway,
 * on a full disk say, leaves the schema as it was.
 */
export class EmbeddedDialect extends SqliteDialect {
  constructor(database: SqliteDatabase) {
    super({ database })
  }

  override createAdapter() {
    return new TransactionalDdlAdapter()
  }
}

class TransactionalDdlAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true
  }
}
