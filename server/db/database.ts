import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { Kysely, Migrator, PostgresDialect, sql } from 'kysely'
import pg from 'pg'
import { migrationProvider } from './migrations'
import { PGliteDialect } from './pglite-dialect'
import type { Schema } from './schema'

export type Db = Kysely<Schema>

export interface Database {
  db: Db
  /** 'embedded' (PGlite in DATA_DIR, or in memory for tests) or 'postgres' (DATABASE_URL). */
  kind: 'embedded' | 'postgres'
  /** Whether the database answers a trivial query within the time given. */
  ping(timeoutMs: number): Promise<boolean>
  close(): Promise<void>
}

export interface DatabaseOptions {
  /** postgres://…; null: the embedded PostgreSQL. */
  databaseUrl: string | null
  /** Folder of the embedded database; null keeps it in memory (tests). */
  dataDir: string | null
  /** An embedded database already made (tests load one from a template); dataDir is then unused. */
  embedded?: PGlite
}

/**
 * Opens the store and brings its schema up to date. PostgreSQL serialises concurrent migrations
 * with an advisory lock, so several replicas can start at once.
 */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  let db: Db
  let kind: Database['kind']
  if (options.databaseUrl) {
    kind = 'postgres'
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 10,
      connectionTimeoutMillis: 5000,
      idleTimeoutMillis: 30_000,
    })
    db = new Kysely<Schema>({ dialect: new PostgresDialect({ pool }) })
  } else {
    kind = 'embedded'
    let pglite = options.embedded
    if (!pglite) {
      let folder: string | undefined
      if (options.dataDir) {
        folder = join(options.dataDir, 'pglite')
        await mkdir(folder, { recursive: true })
      }
      pglite = new PGlite(folder)
    }
    db = new Kysely<Schema>({ dialect: new PGliteDialect(pglite) })
  }

  const { error } = await new Migrator({ db, provider: migrationProvider }).migrateToLatest()
  if (error) {
    await db.destroy()
    throw error instanceof Error ? error : new Error(`migration failed: ${JSON.stringify(error)}`)
  }

  return {
    db,
    kind,
    async ping(timeoutMs) {
      let timer: NodeJS.Timeout | undefined
      const timeout = new Promise<false>(
        (resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)),
      )
      try {
        return await Promise.race([sql`select 1`.execute(db).then(() => true), timeout])
      } catch {
        return false
      } finally {
        clearTimeout(timer)
      }
    },
    close: () => db.destroy(),
  }
}
