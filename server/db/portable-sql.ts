import { PostgresAdapter, sql, type ColumnDataType, type Kysely, type RawBuilder } from 'kysely'

/**
 * The one place where the two engines' SQL differs. Migrations take their column types and
 * defaults from here and never write an engine's type by hand; queries are written once with
 * Kysely and run unchanged on both.
 *
 * - The embedded engine is SQLite (libsql): one file in DATA_DIR, one process.
 * - PostgreSQL (DATABASE_URL) is the engine for several replicas.
 *
 * How each difference is settled:
 * - ids: UUIDs made by the server (crypto.randomUUID(), lower-case). PostgreSQL stores `uuid`,
 *   SQLite `text`; both compare them as the lower-case text the server normalises to.
 * - timestamps: `timestamptz` on both. SQLite has no time type: it keeps ISO 8601 UTC text with
 *   milliseconds (`2026-11-22T16:49:26.123Z`, what Date.toISOString() writes), which sorts and
 *   compares as time; sqlite-database.ts binds a Date as that text and reads every column
 *   declared `timestamptz` back as a Date, so the code sees Date on both engines. Instants are
 *   computed in JS (`new Date()`) and passed as parameters; only column defaults use `now`.
 * - booleans: `boolean` on both; SQLite stores 0/1, bound and read back as false/true the same way.
 * - upserts (`onConflict(...).doNothing()/doUpdateSet()`) and `returning(...)`: the same Kysely
 *   calls compile to valid SQL on both (SQLite has had ON CONFLICT since 3.24 and RETURNING since
 *   3.35; libsql is 3.45). In a `doUpdateSet` refer to the old row as `table.column` and to the
 *   new one as `excluded.column`: both engines read them so.
 * - text in byte order (names by their sort keys, common/name-order.ts): SQLite compares text
 *   byte by byte by default (BINARY); PostgreSQL by the database's collation unless told
 *   `collate "C"`. `bytewise()` below says so where a query needs it.
 * - case-insensitive e-mail: e-mails are stored trimmed and lower-cased (normalizeEmail() in
 *   common/account-rules.ts, before every write and lookup) and compared with `=`, which is
 *   case-sensitive on both engines: no citext and no COLLATE NOCASE, so the two agree on every
 *   address, non-ASCII ones included.
 *
 * A later migration adds a table like this (see migrations.ts):
 *
 *   '2026-12-01-0002-second-factors': {
 *     async up(db, t) {
 *       await db.schema
 *         .createTable('second_factors')
 *         .addColumn('id', t.uuid, (c) => c.primaryKey())
 *         .addColumn('account_id', t.uuid, (c) => c.notNull().references('accounts.id').onDelete('cascade'))
 *         .addColumn('confirmed', t.boolean, (c) => c.notNull().defaultTo(t.false))
 *         .addColumn('created_at', t.timestamp, (c) => c.notNull().defaultTo(t.now))
 *         .execute()
 *     },
 *   },
 *
 * then adds the table to schema.ts, with `Date` for its timestamps and `boolean` for its flags.
 */
export type Engine = 'sqlite' | 'postgres'

/**
 * A step of the schema's history, written once for both engines: column types and defaults come
 * from `t` (PortableSql below, where the two engines' differences live), everything else is
 * plain Kysely. Never edit a migration that has shipped; add the next one at the end of the list
 * in migrations.ts, named `YYYY-MM-DD-NNNN-what-it-adds` (Kysely applies them in name order). The
 * comment above shows one.
 */
export interface PortableMigration {
  up(db: Kysely<unknown>, t: PortableSql): Promise<void>
}

export interface PortableSql {
  engine: Engine
  /** A UUID column. */
  uuid: ColumnDataType
  /** An instant, read back as a Date. */
  timestamp: ColumnDataType
  /** A flag, read back as a boolean. */
  boolean: ColumnDataType
  /** The current instant, for a column's default. */
  now: RawBuilder<Date>
  true: RawBuilder<boolean>
  false: RawBuilder<boolean>
}

/** What a SQLite column declared `timestamptz` holds: see "timestamps" above. */
export const SQLITE_TIMESTAMP_TYPE = 'timestamptz'
export const SQLITE_BOOLEAN_TYPE = 'boolean'

export function portableSql(engine: Engine): PortableSql {
  if (engine === 'postgres') {
    return {
      engine,
      uuid: 'uuid',
      timestamp: 'timestamptz',
      boolean: 'boolean',
      now: sql<Date>`now()`,
      true: sql<boolean>`true`,
      false: sql<boolean>`false`,
    }
  }
  return {
    engine,
    uuid: 'text',
    timestamp: SQLITE_TIMESTAMP_TYPE,
    boolean: SQLITE_BOOLEAN_TYPE,
    // The same text Date.toISOString() writes; in parentheses, as SQLite wants an expression default.
    now: sql<Date>`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`,
    true: sql<boolean>`1`,
    false: sql<boolean>`0`,
  }
}

/** The engine a Kysely runs on, told by its dialect's adapter: for the few queries that differ. */
export function engineOf<Tables>(db: Kysely<Tables>): Engine {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite'
}

/**
 * A text column compared byte by byte (UTF-8, so in code point order) on both engines, for an
 * ORDER BY that must give the same order on each: see "text in byte order" above.
 */
export function bytewise(engine: Engine, column: string): RawBuilder<string> {
  return engine === 'postgres' ? sql<string>`${sql.ref(column)} collate "C"` : sql.ref(column)
}
