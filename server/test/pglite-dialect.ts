import type { PGlite } from '@electric-sql/pglite'
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type QueryResult,
} from 'kysely'

/**
 * Kysely on PGlite, the embedded PostgreSQL (WebAssembly, no native build). Same SQL, adapter
 * and introspector as Kysely's PostgreSQL dialect; only the driver differs.
 *
 * PGlite is one connection. Kysely hands a connection to one query or one whole transaction at a
 * time, so a queue makes the single connection exclusive: a transaction's statements are never
 * interleaved with another request's.
 */
export class PGliteDialect implements Dialect {
  constructor(private readonly pglite: PGlite) {}

  createAdapter() {
    return new PostgresAdapter()
  }

  createDriver(): Driver {
    return new PGliteDriver(this.pglite)
  }

  createIntrospector(db: Parameters<Dialect['createIntrospector']>[0]) {
    return new PostgresIntrospector(db)
  }

  createQueryCompiler() {
    return new PostgresQueryCompiler()
  }
}

class PGliteConnection implements DatabaseConnection {
  constructor(private readonly pglite: PGlite) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.pglite.query<R>(compiled.sql, [...compiled.parameters])
    return {
      rows: result.rows,
      ...(result.affectedRows !== undefined
        ? { numAffectedRows: BigInt(result.affectedRows) }
        : {}),
    }
  }

  // eslint-disable-next-line require-yield -- the interface wants a generator; streaming is not offered
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming queries are not supported on PGlite')
  }
}

class PGliteDriver implements Driver {
  private readonly connection: PGliteConnection
  /** Resolves when the connection is free; each acquirer waits for the previous one. */
  private queue: Promise<void> = Promise.resolve()
  private release: (() => void) | null = null

  constructor(private readonly pglite: PGlite) {
    this.connection = new PGliteConnection(pglite)
  }

  async init(): Promise<void> {
    await this.pglite.waitReady
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const previous = this.queue
    let release: () => void = () => {}
    this.queue = new Promise<void>((resolve) => (release = resolve))
    await previous
    this.release = release
    return this.connection
  }

  async releaseConnection(): Promise<void> {
    const release = this.release
    this.release = null
    release?.()
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin'))
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'))
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'))
  }

  async destroy(): Promise<void> {
    await this.pglite.close()
  }
}
