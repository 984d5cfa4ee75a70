import { createRequire } from 'node:module'
import { Kysely, PostgresDialect, sql } from 'kysely'
import type Pg from 'pg'
import { isUpToDate, migrator } from './migrations'
import { queriesByCallback } from './postgres-pool'
import type { Engine } from './portable-sql'
import type { Schema } from './schema'
import { EmbeddedDialect } from './sqlite-dialect'
import { openSqlite, type SqliteOptions } from './sqlite-database'
import { CHECKPOINT_AT_WAL_BYTES, walBytes, WalCheckpointer } from './wal-checkpointer'

export type Db = Kysely<Schema>

export interface Database {
  db: Db
  /** 'sqlite' (the embedded one: DATA_DIR, or in memory for tests) or 'postgres' (DATABASE_URL). */
  engine: Engine
  /** Whether the database answers and can write now (readiness), within the time given. */
  canWrite(timeoutMs: number): Promise<boolean>
  close(): Promise<void>
}

/** postgres://… of a server, or a SQLite file (':memory:' for tests). */
export type DatabaseLocation = { postgresUrl: string } | { sqliteFile: string }

// pg only when DATABASE_URL names a server: the embedded default never loads it (start-up time).
const loadPackage = createRequire(import.meta.url)

/**
 * What becomes of an error on a pooled PostgreSQL connection that no query is using: the server
 * ended it (a restart, a fail-over, pg_terminate_backend, idle_session_timeout) or the network
 * dropped it. The pool has already discarded that connection and opens a new one when needed.
 */
export type ConnectionLostHandler = (error: Error) => void

/** A Kysely over the location, not yet migrated. */
export function connect(
  location: DatabaseLocation,
  onConnectionLost: ConnectionLostHandler = () => {},
  sqliteOptions: SqliteOptions = {},
): Db {
  if ('postgresUrl' in location) {
    const pg = loadPackage('pg') as typeof Pg
    const pool = new pg.Pool({
      connectionString: location.postgresUrl,
      max: 10,
      connectionTimeoutMillis: 5000,
      idleTimeoutMillis: 30_000,
    })
    // pg's pool re-emits an idle connection's error on itself, and an 'error' event without a
    // listener ends the process: one PostgreSQL restart would take every replica down with it.
    // The pool's own end() does not wait for its connections to finish closing either, so one
    // can still be told it was terminated after the pool has ended.
    pool.on('error', (error) => onConnectionLost(error))
    return new Kysely<Schema>({ dialect: new PostgresDialect({ pool: queriesByCallback(pool) }) })
  }
  const checkpointer = sqliteOptions.checkpointer
    ? new WalCheckpointer(location.sqliteFile, sqliteOptions.checkpointer)
    : null
  return new Kysely<Schema>({
    dialect: new EmbeddedDialect(
      openSqlite(location.sqliteFile, sqliteOptions),
      sqliteOptions.lockWaitMs,
      checkpointer,
    ),
  })
}

/**
 * Brings the schema up to date. On PostgreSQL, concurrent migrations are serialised with an
 * advisory lock, so several replicas can start at once; the embedded engine has one process.
 */
export async function migrate(db: Db, engine: Engine): Promise<void> {
  if (await isUpToDate(db)) return
  const { error } = await migrator(db, engine).migrateToLatest()
  if (error)
    throw error instanceof Error ? error : new Error(`migration failed: ${JSON.stringify(error)}`)
}

/** Opens a location and migrates it. `canWrite` is `answers` unless the caller knows better. */
export async function openDatabase(
  location: DatabaseLocation,
  options: {
    canWrite?: () => Promise<boolean>
    onClose?: () => Promise<void> | void
    onConnectionLost?: ConnectionLostHandler
    /** The embedded engine's connection (tests shorten its lock wait). */
    sqlite?: SqliteOptions
  } = {},
): Promise<Database> {
  const engine: Engine = 'postgresUrl' in location ? 'postgres' : 'sqlite'
  const db = connect(location, options.onConnectionLost, options.sqlite)
  try {
    await migrate(db, engine)
    if ('sqliteFile' in location) await foldInLargeWal(db, location.sqliteFile)
  } catch (error) {
    await db.destroy()
    throw error
  }
  return {
    db,
    engine,
    async canWrite(timeoutMs) {
      const check = async () =>
        engine === 'postgres'
          ? postgresWritable(db)
          : (await answers(db)) && (await (options.canWrite?.() ?? true))
      return withTimeout(check(), timeoutMs)
    },
    async close() {
      // The WAL folded into the database file: a stopped server leaves one file behind.
      if (engine === 'sqlite')
        await sql`pragma wal_checkpoint(TRUNCATE)`.execute(db).catch(() => {})
      await db.destroy()
      await options.onClose?.()
    },
  }
}

/**
 * A WAL of a checkpoint's worth or more, found at the start, folded into the database file and
 * emptied before the server answers. An upgrade's migrations leave one of hundreds of MB (at 1M
 * events one migration rewrites the audit log's details), as a kill -9 leaves the WAL it had. Left
 * to the first checkpoint the commits ask for, it was copied and emptied while the first requests
 * waited for the connection (wal-checkpointer.ts, scheduledCheckpoint): after an upgrade at 1M
 * events a read of Papéis waited 121.6 ms, and 4.5 and 4.9 ms at most with the WAL folded in here;
 * the start took 1.39 s, and 1.31 and 1.36 s (scripts/bench/year-writes.ts, "the 3 s after the
 * start", 2026-12-02). Before the server listens, that time is the start's. Should a reader
 * elsewhere (a backup, an operator's sqlite3) keep part of it, the scheduled checkpoints finish it.
 */
async function foldInLargeWal(db: Db, file: string): Promise<void> {
  if (file === ':memory:' || walBytes(file) < CHECKPOINT_AT_WAL_BYTES) return
  await sql`pragma wal_checkpoint(TRUNCATE)`.execute(db)
}

async function answers(db: Db): Promise<boolean> {
  await sql`select 1`.execute(db)
  return true
}

/** A primary that accepts writes: not a standby, not set read-only. */
async function postgresWritable(db: Db): Promise<boolean> {
  const { rows } = await sql<{
    writable: boolean
  }>`select not pg_is_in_recovery() and current_setting('transaction_read_only') = 'off' as writable`.execute(
    db,
  )
  return rows[0]?.writable === true
}

async function withTimeout(check: Promise<boolean>, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<false>(
    (resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)),
  )
  try {
    return await Promise.race([check.catch(() => false), timeout])
  } finally {
    clearTimeout(timer)
  }
}
