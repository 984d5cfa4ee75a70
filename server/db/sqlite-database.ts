import Libsql from 'libsql'
import type { SqliteDatabase, SqliteStatement } from 'kysely'
import { SQLITE_BOOLEAN_TYPE, SQLITE_TIMESTAMP_TYPE } from './portable-sql'
import { asStorageError } from './storage-failure'
import { FALLBACK_AUTOCHECKPOINT_PAGES, type CheckpointerLog } from './wal-checkpointer'

/**
 * The embedded engine: SQLite through libsql (prebuilt binaries from the npm registry, no
 * compiler, nothing downloaded at install), shaped as the database Kysely's SqliteDialect takes.
 *
 * It also settles the type differences of portable-sql.ts at the driver, so no query has to:
 * a Date parameter is bound as ISO 8601 text and a boolean as 0/1 (libsql refuses a Date, and a
 * boolean aborts the process), and columns declared `timestamptz` or `boolean` come back as Date
 * and boolean, as they do from PostgreSQL.
 */
export interface SqliteOptions {
  /**
   * busy_timeout: how long SQLite itself waits, asleep on the event loop, for another
   * connection's lock. 0 for the server's connection: sqlite-dialect.ts waits on a timer instead.
   */
  busyTimeoutMs?: number
  /**
   * How long a write waits for another process's write lock before it fails with a 503
   * (sqlite-dialect.ts, DEFAULT_LOCK_WAIT_MS).
   */
  lockWaitMs?: number
  /**
   * 'wal' for the server's connection. 'delete' (a rollback journal) for a connection that must
   * leave no shared-memory index behind: see createDatabase in embedded-store.ts.
   */
  journal?: 'wal' | 'delete'
  /**
   * The server's connection: its checkpoints are made on a thread (wal-checkpointer.ts), whose
   * failures go to this log. SQLite's own then waits for FALLBACK_AUTOCHECKPOINT_PAGES.
   */
  checkpointer?: CheckpointerLog
}

/** The page cache of a connection (KiB). */
export const CACHE_KIB = 16 * 1024

/** The pragmas every connection runs with; sqlite-database.test.ts checks each one is in force. */
export function connectionPragmas({
  busyTimeoutMs = 0,
  journal = 'wal',
  checkpointer,
}: SqliteOptions = {}): string[] {
  return [
    // Readers (a backup) never block the writer and the writer never blocks them.
    `journal_mode = ${journal === 'wal' ? 'WAL' : 'DELETE'}`,
    // A commit is on disk before it is acknowledged: WAL with NORMAL may lose the last
    // transactions at a power loss, which an acknowledged registration must survive.
    'synchronous = FULL',
    'foreign_keys = ON',
    `busy_timeout = ${busyTimeoutMs}`,
    // Deleted rows are overwritten with zeros (their cells and the pages freed), so what an
    // anonymisation removes is not left in the file's free space until a VACUUM
    // (server/db/forget-deleted-bytes.ts finishes the job for the WAL). The cost is writing the
    // freed pages out instead of only listing them as free; measured in forget-deleted-bytes.ts.
    'secure_delete = ON',
    // 16 MB of pages kept in memory (SQLite's default is 2 MB). At a year's size a search's
    // 2,090 matches are 2,090 look-ups in tables larger than 2 MB, each read again from the
    // operating system: 5.2 ms for those of "joao" at 100k people, 0.8 ms with the pages kept
    // (the query timed alone by hand, on the data npm run bench -- --only scale seeds).
    // The cache fills only as pages are read, so a small organisation's server holds less.
    `cache_size = -${CACHE_KIB}`,
    // SQLite's automatic checkpoint runs at a COMMIT, on the event loop: with a checkpointer it
    // is only the backstop (wal-checkpointer.ts). 1000 pages is SQLite's default.
    `wal_autocheckpoint = ${checkpointer ? FALLBACK_AUTOCHECKPOINT_PAGES : 1000}`,
  ]
}

export function openSqlite(
  path: string,
  options: SqliteOptions = {},
): SqliteDatabase & {
  raw: Libsql.Database
  /** False once closed: libsql panics (aborting the process) when a closed database is used. */
  readonly isOpen: boolean
} {
  const raw = new Libsql(path)
  try {
    for (const pragma of connectionPragmas(options)) raw.exec(`pragma ${pragma}`)
  } catch (error) {
    raw.close()
    throw error
  }
  // Prepared once per text and kept: SQLite's parse and plan of a query, and the look at its
  // columns, cost more than many a page's read itself. A statement is reset by its next run.
  const prepared = new Map<string, ConvertingStatement>()
  // A statement kept past close() (here, or by the driver: sqlite-dialect.ts) must not reach
  // libsql, which panics on a closed database's statement instead of throwing.
  const connection = { open: true }
  return {
    raw,
    get isOpen() {
      return connection.open
    },
    close: () => {
      if (!connection.open) return
      connection.open = false
      prepared.clear()
      raw.close()
    },
    prepare: (text) => {
      // A query that comes after close (a background job's, or one in flight at a shutdown)
      // fails as a query, instead of reaching libsql.
      if (!connection.open) throw new TypeError('The database connection is not open')
      if (SCHEMA_CHANGE.test(text)) {
        // The columns a kept statement reads may change (`select *`): none is kept across it.
        prepared.clear()
        return new ConvertingStatement(
          guard(() => raw.prepare(text)),
          connection,
        )
      }
      let statement = prepared.get(text)
      if (statement) {
        // Most recently used last: the first is the one to drop.
        prepared.delete(text)
      } else {
        statement = new ConvertingStatement(
          guard(() => raw.prepare(text)),
          connection,
        )
        if (prepared.size >= STATEMENTS_KEPT) prepared.delete(prepared.keys().next().value!)
      }
      prepared.set(text, statement)
      return statement
    },
  }
}

/** How many prepared statements a connection keeps (the server runs fewer kinds of query). */
const STATEMENTS_KEPT = 500
const SCHEMA_CHANGE = /^\s*(create|alter|drop)\b/i

type Row = Record<string, unknown>

/**
 * A statement whose rows come as objects with dates and booleans read (the types the schema
 * declares: SQLITE_TIMESTAMP_TYPE, SQLITE_BOOLEAN_TYPE).
 *
 * libsql is asked for each row as an array, and the object is made here. libsql makes an object
 * by setting its properties one by one through Node's native API: 9 µs for a row of the audit
 * log, against 6–7 µs for the array and the object made in JavaScript (libsql's `all()` both
 * ways, a thousand rows at a time, on the year's log that npm run bench -- --only scale seeds).
 * Every read of the embedded database pays it.
 */
class ConvertingStatement implements SqliteStatement {
  /** Per column of a reader: its name, and how to read its value (null: as it comes). */
  private readonly names: string[] = []
  private readonly readers: (((value: unknown) => unknown) | null)[] = []

  constructor(
    private readonly statement: Libsql.Statement<unknown[]>,
    private readonly connection: { readonly open: boolean },
  ) {
    if (statement.reader) {
      statement.raw(true)
      for (const column of statement.columns()) {
        const type = column.type?.toLowerCase()
        this.names.push(column.name)
        this.readers.push(
          type === SQLITE_TIMESTAMP_TYPE
            ? readTimestamp
            : type === SQLITE_BOOLEAN_TYPE
              ? readBoolean
              : null,
        )
      }
    }
  }

  get reader(): boolean {
    return this.statement.reader
  }

  all(parameters: readonly unknown[]): unknown[] {
    this.mustBeOpen()
    const rows = guard(() => this.statement.all(bindable(parameters)) as unknown[][])
    return rows.map((values) => this.toRow(values))
  }

  run(parameters: readonly unknown[]): {
    changes: number | bigint
    lastInsertRowid: number | bigint
  } {
    this.mustBeOpen()
    return guard(() => this.statement.run(bindable(parameters)))
  }

  *iterate(parameters: readonly unknown[]): IterableIterator<unknown> {
    yield* this.all(parameters)
  }

  private mustBeOpen(): void {
    // libsql's own words for a closed database's prepare.
    if (!this.connection.open) throw new TypeError('The database connection is not open')
  }

  /** The row as an object, as libsql makes it: a later column of the same name wins. */
  private toRow(values: unknown[]): Row {
    const row: Row = {}
    for (let index = 0; index < this.names.length; index++) {
      const read = this.readers[index]
      row[this.names[index]!] = read ? read(values[index]) : values[index]
    }
    return row
  }
}

/** A full disk or a read-only file becomes a StorageUnavailableError (503, not 500). */
function guard<T>(operation: () => T): T {
  try {
    return operation()
  } catch (error) {
    throw asStorageError(error)
  }
}

/** Parameters as libsql binds them: dates as ISO text, booleans as 0 and 1. */
export function bindable(parameters: readonly unknown[]): unknown[] {
  return parameters.map((value) => {
    if (value instanceof Date) return value.toISOString()
    if (typeof value === 'boolean') return value ? 1 : 0
    return value
  })
}

function readTimestamp(value: unknown): unknown {
  return typeof value === 'string' ? new Date(value) : value
}

function readBoolean(value: unknown): unknown {
  return typeof value === 'number' || typeof value === 'bigint'
    ? value !== 0 && value !== 0n
    : value
}
