import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before } from 'node:test'
import pg from 'pg'
import { connect, openDatabase, type Database, type Db } from '../db/database'
import { migrator } from '../db/migrations'
import type { Engine } from '../db/portable-sql'

/**
 * A fresh, migrated, empty database for one test file.
 *
 * - With TEST_DATABASE_URL (postgres://… of a server where that user may create databases; .ci/run
 *   sets it): a new database on that server, dropped afterwards. The same tests then prove the
 *   PostgreSQL path.
 * - Otherwise the embedded engine, SQLite, in memory: the same driver, pragmas and type
 *   conversions as DATA_DIR's file (db/one-process-per-data-dir.test.ts, unusable-data-dir.test.ts and durability.test.ts
 *   cover the file itself).
 */
export async function testDatabase(): Promise<Database> {
  const serverUrl = process.env.TEST_DATABASE_URL
  return serverUrl ? postgresDatabase(serverUrl) : openDatabase({ sqliteFile: ':memory:' })
}

export const testStoreName = () => (process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'SQLite')

/**
 * An empty database for one migration's test, on the same engine as testDatabase(): `migrateTo`
 * brings it up to a named migration, so the rows can be written as the tables were then, before
 * `migrate` runs the rest.
 */
export interface UnmigratedTestDatabase {
  db: Db
  engine: Engine
  migrateTo: (migration: string) => Promise<void>
  close: () => Promise<void>
}

export async function unmigratedTestDatabase(): Promise<UnmigratedTestDatabase> {
  const serverUrl = process.env.TEST_DATABASE_URL
  const scratch = serverUrl ? await scratchPostgres(serverUrl) : null
  const db = connect(scratch ? { postgresUrl: scratch.url } : { sqliteFile: ':memory:' })
  const engine: Engine = scratch ? 'postgres' : 'sqlite'
  return {
    db,
    engine,
    async migrateTo(migration) {
      const { error } = await migrator(db, engine).migrateTo(migration)
      if (error)
        throw error instanceof Error
          ? error
          : new Error(`migration failed: ${JSON.stringify(error)}`)
    },
    async close() {
      await db.destroy()
      await scratch?.drop()
    },
  }
}

/** `use` with a connection of its own to the server of `serverUrl`, closed afterwards. */
export async function withPostgresClient<T>(
  serverUrl: string,
  use: (client: pg.Client) => Promise<T>,
): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl })
  await client.connect()
  try {
    return await use(client)
  } finally {
    await client.end()
  }
}

/** Runs one statement at a time on the server of `serverUrl`, each on a connection of its own. */
function statementRunner(serverUrl: string): (statement: string) => Promise<void> {
  return (statement) =>
    withPostgresClient(serverUrl, async (client) => {
      await client.query(statement)
    })
}

/**
 * The migrated database a test run copies, named by TEST_DATABASE_TEMPLATE
 * (migratedTestTemplate below): a copy is a new database with every migration in, where running
 * the migrations again took twice as long as creating the database.
 */
const MIGRATED_TEMPLATE = 'TEST_DATABASE_TEMPLATE'

/**
 * A new database on the server of `serverUrl`, and how to drop it: empty, or a copy of
 * `template`.
 */
export async function scratchPostgres(
  serverUrl: string,
  template?: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `painel_test_${process.pid}_${Math.random().toString(36).slice(2, 8)}`
  const run = statementRunner(serverUrl)
  await run(`create database ${name}${template ? ` template ${template}` : ''}`)
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  return { url: url.toString(), drop: () => dropScratch(run, name) }
}

/**
 * `drop … with (force)` ends the database's other sessions, but a role that is not a superuser
 * may only end its own (and, with pg_signal_backend, others': .ci/run grants it): an autovacuum
 * worker that has just started on the scratch database answers 42501, and one still leaving it
 * 55006. Both go by themselves within moments, so the drop tries again, a bounded number of times.
 */
export async function dropScratch(run: (statement: string) => Promise<void>, name: string) {
  const passing = new Set(['42501', '55006'])
  for (let attempt = 1; ; attempt++) {
    try {
      return await run(`drop database if exists ${name} with (force)`)
    } catch (error) {
      const code = (error as { code?: string }).code
      if (attempt >= 20 || code === undefined || !passing.has(code)) throw error
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
  }
}

async function postgresDatabase(serverUrl: string): Promise<Database> {
  const scratch = await scratchPostgres(serverUrl, process.env[MIGRATED_TEMPLATE])
  const database = await openDatabase({ postgresUrl: scratch.url })
  return {
    ...database,
    async close() {
      await database.close()
      await scratch.drop()
    },
  }
}

/**
 * For a whole run of test files (scripts/run-unit-tests.ts): a database on the server of
 * `serverUrl` with every migration in, which testDatabase() copies while TEST_DATABASE_TEMPLATE
 * names it, and how to drop it. Nobody stays connected to it: PostgreSQL copies a database only
 * while no session is in it, and with connections refused, neither autovacuum nor a stray client
 * can be.
 */
export async function migratedTestTemplate(
  serverUrl: string,
): Promise<{ env: Record<string, string>; drop: () => Promise<void> }> {
  const scratch = await scratchPostgres(serverUrl)
  const name = new URL(scratch.url).pathname.slice(1)
  const database = await openDatabase({ postgresUrl: scratch.url })
  await database.close()
  const run = statementRunner(serverUrl)
  await run(`alter database ${name} with allow_connections false`)
  return {
    env: { [MIGRATED_TEMPLATE]: name },
    async drop() {
      await run(`alter database ${name} with allow_connections true`)
      await scratch.drop()
    },
  }
}

/**
 * Where an app that opens its own database (as in production) should open it: a fresh database
 * on TEST_DATABASE_URL's server, or a fresh folder for the embedded one. Reopening the same
 * location finds the same data.
 */
export async function testDatabaseLocation(): Promise<{
  databaseUrl: string | null
  dataDir: string
  cleanup: () => Promise<void>
}> {
  const dataDir = await mkdtemp(join(tmpdir(), 'painel-data-'))
  const removeDataDir = () => rm(dataDir, { recursive: true, force: true })
  const serverUrl = process.env.TEST_DATABASE_URL
  if (!serverUrl) return { databaseUrl: null, dataDir, cleanup: removeDataDir }
  const scratch = await scratchPostgres(serverUrl)
  return {
    databaseUrl: scratch.url,
    dataDir,
    async cleanup() {
      await removeDataDir()
      await scratch.drop()
    },
  }
}

/**
 * For a migration's test file: unmigratedTestDatabase(), opened before its tests and closed after
 * them. What it returns reaches that database when read inside a test (it is open by then).
 */
export function unmigratedTestDatabaseForFile(): UnmigratedTestDatabase {
  let opened: UnmigratedTestDatabase | undefined
  const current = () => {
    if (!opened)
      throw new Error('the unmigrated test database opens before the tests: read it in one')
    return opened
  }
  before(async () => {
    opened = await unmigratedTestDatabase()
  })
  after(() => opened?.close())
  return {
    get db() {
      return current().db
    },
    get engine() {
      return current().engine
    },
    migrateTo: (migration) => current().migrateTo(migration),
    close: () => current().close(),
  }
}

/**
 * Active staff accounts as the tables were before the name-sort-keys migration (0500: no
 * name_sort_key yet), for the migrations' tests. Kysely's types describe the schema after every
 * migration, hence the cast. Their ids, in order.
 */
export async function insertAccountsWithoutSortKeys(
  db: Db,
  people: readonly { name: string; email: string }[],
): Promise<string[]> {
  const ids: string[] = []
  for (const { name, email } of people) {
    const id = crypto.randomUUID()
    await db
      .insertInto('accounts')
      .values({
        id,
        name,
        email,
        password_hash: 'x',
        role: 'staff',
        status: 'active',
      } as never)
      .execute()
    ids.push(id)
  }
  return ids
}
