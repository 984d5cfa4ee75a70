import {
  SqliteAdapter,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type SqliteDatabase,
} from 'kysely'

/** The embedded database as openSqlite() gives it: Kysely's interface, and the connection. */
export type EmbeddedDatabase = SqliteDatabase & { raw: { readonly inTransaction: boolean } }

/**
 * Kysely's SQLite dialect, except that migrations run in a transaction: SQLite's DDL is
 * transactional (Kysely's adapter says no only to be safe), so a migration that fails halfway,
 * on a full disk say, leaves the schema as it was. And a rollback with nothing to undo is none.
 */
export class EmbeddedDialect extends SqliteDialect {
  constructor(private readonly database: EmbeddedDatabase) {
    super({ database })
  }

  override createAdapter() {
    return new TransactionalDdlAdapter()
  }

  override createDriver() {
    return new RollbackWhenOpenDriver(this.database)
  }
}

class TransactionalDdlAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true
  }
}

/**
 * On a full disk (SQLITE_FULL) or an I/O error SQLite has already rolled the transaction back
 * itself, and Kysely's `rollback` after the failed body would fail with "cannot rollback - no
 * transaction is active": an error that replaced the storage error the caller must see (a 503)
 * with an unexplained one (a 500). Nothing left to undo is not a failure of the rollback.
 *
 * And the one connection passes from query to query through the event loop. SQLite runs each
 * query on this thread; Kysely's own lock hands the connection to the next waiting query in a
 * microtask, so under load one query followed another without the loop ever reading a socket:
 * /healthz waited behind every query queued (issue 44: p99 1.3 s, 8 of 17 probes failed).
 * Handed over with setImmediate, the next query starts after the loop has polled: what waits
 * for I/O waits for one query at most.
 */
class RollbackWhenOpenDriver extends SqliteDriver {
  private busy = false
  private readonly turns: (() => void)[] = []

  constructor(private readonly database: EmbeddedDatabase) {
    super({ database })
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    if (this.busy) await new Promise<void>((resolve) => this.turns.push(resolve))
    this.busy = true
    return super.acquireConnection()
  }

  override async releaseConnection(): Promise<void> {
    await super.releaseConnection()
    const next = this.turns.shift()
    if (next) setImmediate(next)
    else this.busy = false
  }

  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    if (this.database.raw.inTransaction) await super.rollbackTransaction(connection)
  }
}
