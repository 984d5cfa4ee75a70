import {
  CompiledQuery,
  SqliteAdapter,
  SqliteDialect,
  type DatabaseConnection,
  type Driver,
  type QueryExecutor,
  type QueryResult,
  type SqliteDatabase,
  type SqliteStatement,
  type TransactionSettings,
} from 'kysely'
import { setImmediate as nextTurn } from 'node:timers/promises'
import { bindable } from './sqlite-database'
import { asStorageError, storageProblem, StorageUnavailableError } from './storage-failure'
import { StepFailed, ThreadUnavailable, type WalCheckpointer } from './wal-checkpointer'

/** The embedded database as openSqlite() gives it: Kysely's interface, and the connection. */
export type EmbeddedDatabase = SqliteDatabase & {
  raw: { readonly inTransaction: boolean }
  readonly isOpen: boolean
}

/** How long a request waits for another process's write lock before it is refused (503). */
export const DEFAULT_LOCK_WAIT_MS = 5000
/** What a refused client is told to wait (Retry-After, seconds). */
export const LOCKED_RETRY_AFTER_SECONDS = 5

/**
 * Kysely's SQLite dialect, with three changes.
 *
 * - Migrations run in a transaction: SQLite's DDL is transactional (Kysely's adapter says no only
 *   to be safe), so a migration that fails halfway, on a full disk say, leaves the schema as it was.
 * - A rollback with nothing to undo is none: on a full disk or an I/O error SQLite has already
 *   rolled back, and the failure of a second rollback would replace the storage error the caller
 *   must see (a 503) with an unexplained one (a 500).
 * - Another process's write lock (an operator's `sqlite3`, a backup tool) is waited for without
 *   holding the event loop, then refused with a 503 the client may retry, and the server goes on
 *   by itself once the lock is let go; see EmbeddedDriver.
 * - With a checkpointer (the server's connection), checkpoints are made on its thread
 *   (wal-checkpointer.ts): each commit is told to it, and a TRUNCATE checkpoint asked of the
 *   connection outside a transaction is made there, awaited without holding the loop. A long
 *   write's steps run there too (stepRunner below).
 */
export class EmbeddedDialect extends SqliteDialect {
  constructor(
    private readonly database: EmbeddedDatabase,
    private readonly lockWaitMs = DEFAULT_LOCK_WAIT_MS,
    private readonly checkpointer: WalCheckpointer | null = null,
  ) {
    super({ database })
  }

  override createAdapter() {
    return new TransactionalDdlAdapter(this.checkpointer)
  }

  override createDriver(): Driver {
    return new EmbeddedDriver(this.database, this.lockWaitMs, this.checkpointer)
  }
}

/** A long write's step: one write statement in a transaction of its own; the rows it changed. */
export type StepRunner = (compiled: CompiledQuery) => Promise<number>

class TransactionalDdlAdapter extends SqliteAdapter {
  /** The connection's thread, for stepRunner. */
  constructor(readonly checkpointer: WalCheckpointer | null) {
    super()
  }

  override get supportsTransactionalDdl(): boolean {
    return true
  }
}

/**
 * How `db` runs the steps of a long write on the database's thread (wal-checkpointer.ts), with
 * the connection kept for each step's time and the loop free: null on PostgreSQL, on an embedded
 * connection without a thread (the tests' own, a tool's), which run them as queries, and inside a
 * transaction, which holds the connection and the write lock the step would wait for.
 */
export function stepRunner(db: {
  readonly isTransaction: boolean
  getExecutor(): QueryExecutor
}): StepRunner | null {
  if (db.isTransaction) return null
  const executor = db.getExecutor()
  const { adapter } = executor
  if (!(adapter instanceof TransactionalDdlAdapter) || !adapter.checkpointer) return null
  const { checkpointer } = adapter
  return async (compiled) => {
    // The thread started, and past the checkpoints asked before, without the connection kept.
    await checkpointer.ready().catch(() => {})
    // The caller's connection: the one it holds already inside db.connection(), else taken.
    return executor.provideConnection((connection) =>
      (connection as EmbeddedConnection).stepOnThread(compiled),
    )
  }
}

/** Whether a transaction is open; never asked of a closed database, which libsql cannot answer. */
const inTransaction = (database: EmbeddedDatabase) => database.isOpen && database.raw.inTransaction

/** A statement that only reads: run as it is, outside any transaction of ours. */
const READS = /^\s*(select|with|explain|pragma)\b/i
/** The checkpoint an anonymisation and the close ask for (forget-deleted-bytes.ts, database.ts). */
const TRUNCATE_CHECKPOINT = /^\s*pragma\s+wal_checkpoint\s*\(\s*truncate\s*\)\s*$/i

/**
 * The one connection of the embedded database, shared by turns (a mutex, as Kysely's own driver).
 *
 * Every write takes SQLite's write lock first, with BEGIN IMMEDIATE: a transaction's (Kysely's
 * `transaction()`), and a single statement's too (it gets a transaction of its own). While
 * another process holds the lock, BEGIN IMMEDIATE answers SQLITE_BUSY at once (busy_timeout is
 * 0: SQLite's own wait would sleep on the event loop, and every request with it); the driver
 * then waits on a timer, with the connection free for the reads that need no lock (WAL), and
 * tries again, up to the lock wait; past it the request fails with StorageUnavailableError
 * ('busy'), a 503 with Retry-After. Nothing has run when BEGIN is refused, so a retry is safe.
 *
 * Why not simply retry the failed statement: libsql does not reset a statement that failed, and
 * a statement left unfinished makes every later COMMIT fail ("SQL statements in progress") —
 * how one operator's `sqlite3` once left the server answering 500 until a restart. Only the
 * BEGIN can be refused for the lock now, and it is one prepared statement run again (a run
 * resets it). A read refused (rare in WAL: a WAL being recovered) is retried the same way, run
 * again on its own statement.
 */
class EmbeddedDriver implements Driver {
  private readonly mutex = new ConnectionMutex()
  private connection!: EmbeddedConnection

  constructor(
    private readonly database: EmbeddedDatabase,
    private readonly lockWaitMs: number,
    private readonly checkpointer: WalCheckpointer | null,
  ) {}

  async init(): Promise<void> {
    this.connection ??= new EmbeddedConnection(
      this.database,
      this.mutex,
      this.lockWaitMs,
      this.checkpointer,
    )
    // The checkpoints the commits ask for run with the connection kept (wal-checkpointer.ts).
    this.checkpointer?.keepWith(async (work) => {
      await this.mutex.lock()
      try {
        return await work()
      } finally {
        this.mutex.unlock()
      }
    })
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    await this.mutex.lock()
    return this.connection
  }

  async beginTransaction(_connection: DatabaseConnection, _settings: TransactionSettings) {
    await this.connection.begin()
  }

  async commitTransaction(): Promise<void> {
    this.connection.finish('commit')
  }

  async rollbackTransaction(): Promise<void> {
    if (inTransaction(this.database)) this.connection.finish('rollback')
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`savepoint ${quoteName(name)}`))
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`rollback to ${quoteName(name)}`))
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`release ${quoteName(name)}`))
  }

  async releaseConnection(): Promise<void> {
    this.mutex.unlock()
  }

  async destroy(): Promise<void> {
    // The thread's connection first: the last one to close folds the WAL into the file.
    await this.checkpointer?.close()
    this.database.close()
  }
}

const quoteName = (name: string) => `"${name.replace(/"/g, '""')}"`

/**
 * How long the statements of one transaction may run before the event loop gets a turn. A
 * transaction keeps the connection (the mutex below) from its BEGIN to its COMMIT, and SQLite runs
 * each statement on this thread, so one that writes many rows, each with its own statements,
 * held the loop to its end: a directory's PATCH adding 100 people to a team held it 144 ms, one
 * removing them 215 ms, at 100k people (npm run bench -- --only scale's seeding code; by hand,
 * 2026-12-01). Between two statements past this, the loop turns: other requests' sockets are
 * read, /healthz answers, and what needs the database waits for the transaction as before.
 */
export const LOOP_TURN_EVERY_MS = 10

class EmbeddedConnection implements DatabaseConnection {
  private beginStatement: SqliteStatement | null = null
  /** When statements began to run since the loop last turned; null once it has. */
  private heldSince: number | null = null
  private readonly finishing = new Map<string, SqliteStatement>()
  /** Reads given up on while refused: run again once the lock is ours, which resets them. */
  private unfinished: (() => unknown)[] = []

  constructor(
    private readonly database: EmbeddedDatabase,
    private readonly mutex: ConnectionMutex,
    private readonly lockWaitMs: number,
    private readonly checkpointer: WalCheckpointer | null,
  ) {}

  /** BEGIN IMMEDIATE: the write lock, waited for on a timer while another process holds it. */
  async begin(): Promise<void> {
    this.beginStatement ??= this.database.prepare('begin immediate')
    const statement = this.beginStatement
    await this.whenFree(() => statement.run([]))
    for (const read of this.unfinished.splice(0)) {
      try {
        read()
      } catch {
        // Only run to be reset; its caller has long had its 503.
      }
    }
  }

  finish(command: 'commit' | 'rollback'): void {
    let statement = this.finishing.get(command)
    if (!statement) {
      statement = this.database.prepare(command)
      this.finishing.set(command, statement)
    }
    statement.run([])
    if (command === 'commit') this.checkpointer?.noteCommit()
  }

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    await this.turnWhenHeld()
    const { sql, parameters } = compiled
    if (this.checkpointer && TRUNCATE_CHECKPOINT.test(sql) && !inTransaction(this.database))
      return this.checkpointOnThread<R>(this.checkpointer, sql)
    if (inTransaction(this.database) || READS.test(sql)) {
      const statement = this.database.prepare(sql)
      return this.whenFree(
        () => run<R>(statement, parameters),
        () => this.unfinished.push(() => run(statement, parameters)),
      )
    }
    // A write on its own: in a transaction of its own, so the lock is taken before it runs.
    await this.begin()
    try {
      const result = run<R>(this.database.prepare(sql), parameters)
      this.finish('commit')
      return result
    } catch (error) {
      if (inTransaction(this.database)) this.finish('rollback')
      throw error
    }
  }

  /**
   * A TRUNCATE checkpoint made on the checkpointer's thread, answered as SQLite answers it. The
   * connection stays this caller's meanwhile, as for any query, but the loop turns; the thread
   * waits for no lock, so that is not long. Should the thread fail, or not be there (closed,
   * paused after a failure), it is made here after all: an anonymisation's checkpoint must not be
   * lost.
   */
  private async checkpointOnThread<R>(
    checkpointer: WalCheckpointer,
    sql: string,
  ): Promise<QueryResult<R>> {
    try {
      return { rows: [(await checkpointer.checkpoint('TRUNCATE')) as R] }
    } catch {
      return run<R>(this.database.prepare(sql), [])
    }
  }

  /**
   * A write on the checkpointer's thread, in a transaction of its own there, the connection kept
   * meanwhile. While another process holds the write lock it is asked again (whenFree); past the
   * lock wait, a 503. Not given to the thread (ThreadUnavailable), or asked inside a transaction
   * of this connection (whose write lock the thread would wait for), it runs here, as any write.
   */
  async stepOnThread(compiled: CompiledQuery): Promise<number> {
    const onHere = async () => Number((await this.executeQuery(compiled)).numAffectedRows ?? 0n)
    if (inTransaction(this.database)) return onHere()
    const checkpointer = this.checkpointer!
    const step = {
      sql: compiled.sql,
      parameters: bindable(compiled.parameters) as (string | number | null)[],
    }
    try {
      return await this.whenFree(async () => {
        const answer = await checkpointer.step(step)
        if ('busy' in answer)
          throw new StorageUnavailableError('busy', {
            cause: new Error('another process holds the write lock'),
          })
        checkpointer.noteCommit()
        return answer.changes
      })
    } catch (error) {
      if (error instanceof StepFailed) throw asStorageError(error)
      if (error instanceof ThreadUnavailable) return onHere()
      throw error
    }
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    // Nothing streams from SQLite here: a page is read whole, and a long read (the CSV export)
    // goes a page at a time, so that the connection is never held while a client reads.
    throw new Error('the embedded database does not stream queries')
  }

  /**
   * Lets the event loop turn before the next statement once statements have run
   * LOOP_TURN_EVERY_MS without one. A marker set with the first statement after a turn notes the
   * next turn; it runs before the wait here, which it so ends.
   */
  private async turnWhenHeld(): Promise<void> {
    if (this.heldSince !== null && performance.now() - this.heldSince >= LOOP_TURN_EVERY_MS)
      await nextTurn()
    if (this.heldSince === null) {
      this.heldSince = performance.now()
      setImmediate(() => {
        this.heldSince = null
      })
    }
  }

  /**
   * Runs `attempt`; while it is refused for another process's lock, waits a little (the
   * connection free meanwhile) and runs it again, for at most the lock wait.
   */
  private async whenFree<T>(attempt: () => T | Promise<T>, givenUp = () => {}): Promise<T> {
    const deadline = Date.now() + this.lockWaitMs
    let delay = 2
    for (;;) {
      try {
        return await attempt()
      } catch (error) {
        if (storageProblem(error) !== 'busy') throw error
        if (Date.now() + delay > deadline) {
          givenUp()
          throw lockedOut(error)
        }
      }
      this.mutex.unlock()
      try {
        await new Promise((resolve) => setTimeout(resolve, delay))
      } finally {
        await this.mutex.lock()
      }
      delay = Math.min(delay * 2, 100)
    }
  }
}

function run<R>(statement: SqliteStatement, parameters: readonly unknown[]): QueryResult<R> {
  if (statement.reader) return { rows: statement.all(parameters) as R[] }
  const { changes, lastInsertRowid } = statement.run(parameters)
  return {
    numAffectedRows: changes !== undefined && changes !== null ? BigInt(changes) : undefined,
    insertId:
      lastInsertRowid !== undefined && lastInsertRowid !== null
        ? BigInt(lastInsertRowid)
        : undefined,
    rows: [],
  }
}

/** The lock was not let go in time: a 503 with Retry-After (server/http/errors.ts). */
function lockedOut(cause: unknown): StorageUnavailableError {
  const error =
    cause instanceof StorageUnavailableError
      ? cause
      : new StorageUnavailableError('busy', { cause })
  error.retryAfterSeconds = LOCKED_RETRY_AFTER_SECONDS
  return error
}

/**
 * The one connection, to one query or transaction at a time, taken only from the event loop (a
 * setImmediate), never in the microtasks of whatever asked for it. SQLite runs each query on this
 * thread. A lock handing the connection to the next waiter in a microtask (Kysely's own) let a
 * request that found it free run its queries inside the I/O callback that read it: the loop reads
 * every ready socket in one pass, so under load one pass ran request after request, each to its
 * end, and /healthz waited 30-40 s (issue 44). Taken from the loop, one query starts per turn of
 * it, with the sockets read in between: what waits for I/O waits for about one query.
 */
class ConnectionMutex {
  private busy = false
  private readonly turns: (() => void)[] = []

  async lock(): Promise<void> {
    if (this.busy) {
      // Handed over by unlock(), still busy: the turn is this waiter's.
      await new Promise<void>((resolve) => this.turns.push(resolve))
      return
    }
    this.busy = true
    await new Promise<void>((resolve) => setImmediate(resolve))
  }

  unlock(): void {
    const next = this.turns.shift()
    if (next) setImmediate(next)
    else this.busy = false
  }
}
