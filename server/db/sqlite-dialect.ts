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
 * And the one connection is taken only from the event loop (a setImmediate), never in the
 * microtasks of whatever asked for it. SQLite runs each query on this thread. Kysely's own lock
 * handed the connection to the next waiting query in a microtask, and a request that found it
 * free ran its queries inside the I/O callback that read it: the loop reads every ready socket
 * in one pass, so under load one pass ran request after request, each to its end, and /healthz
 * waited 30-40 s (issue 44). Taken from the loop, one query starts per turn of it, with the
 * sockets read in between: what waits for I/O waits for about one query.
 */
class RollbackWhenOpenDriver extends SqliteDriver {
  private busy = false
  private readonly turns: (() => void)[] = []

  constructor(private readonly database: EmbeddedDatabase) {
    super({ database })
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    if (this.busy) {
      await new Promise<void>((resolve) => this.turns.push(resolve))
    } else {
      this.busy = true
      await new Promise<void>((resolve) => setImmediate(resolve))
    }
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
