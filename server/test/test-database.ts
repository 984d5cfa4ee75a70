import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import { openDatabase, type Database } from '../db/database'

/**
 * A fresh, migrated, empty database for one test file.
 *
 * - With TEST_DATABASE_URL (postgres://… of a server where that user may create databases; .ci/run
 *   sets it): a new database on that server, dropped afterwards. The same tests then prove the
 *   PostgreSQL path.
 * - Otherwise the embedded PGlite, in memory. A new PGlite takes ~3 s to initialise, so the first
 *   one is saved as a template (in the OS temp folder, keyed by the migrations' and PGlite's
 *   versions) and later ones load it in well under a second.
 */
export async function testDatabase(): Promise<Database> {
  const serverUrl = process.env.TEST_DATABASE_URL
  return serverUrl ? postgresDatabase(serverUrl) : embeddedDatabase()
}

export const testStoreName = () => (process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'PGlite')

/** A new, empty database on the server of `serverUrl`, and how to drop it. */
async function scratchPostgres(
  serverUrl: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `painel_test_${process.pid}_${Math.random().toString(36).slice(2, 8)}`
  const run = async (statement: string) => {
    const client = new pg.Client({ connectionString: serverUrl })
    await client.connect()
    try {
      await client.query(statement)
    } finally {
      await client.end()
    }
  }
  await run(`create database ${name}`)
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  return { url: url.toString(), drop: () => run(`drop database if exists ${name} with (force)`) }
}

async function postgresDatabase(serverUrl: string): Promise<Database> {
  const scratch = await scratchPostgres(serverUrl)
  const database = await openDatabase({ databaseUrl: scratch.url, dataDir: null })
  return {
    ...database,
    async close() {
      await database.close()
      await scratch.drop()
    },
  }
}

function templatePath(): string {
  const here = import.meta.dirname
  const fingerprint = createHash('sha256')
    .update(readFileSync(join(here, '..', 'db', 'migrations.ts')))
    .update(
      readFileSync(
        join(here, '..', '..', 'node_modules', '@electric-sql', 'pglite', 'package.json'),
      ),
    )
    .digest('hex')
    .slice(0, 16)
  return join(tmpdir(), `painel-pglite-template-${fingerprint}.tar`)
}

async function embeddedDatabase(): Promise<Database> {
  const template = templatePath()
  if (existsSync(template)) {
    const embedded = new PGlite({ loadDataDir: new Blob([await readFile(template)]) })
    return openDatabase({ databaseUrl: null, dataDir: null, embedded })
  }
  const embedded = new PGlite()
  const database = await openDatabase({ databaseUrl: null, dataDir: null, embedded })
  const dump = await embedded.dumpDataDir('none')
  // Written under another name first: a test file running at the same time never reads half a file.
  const partial = `${template}.${process.pid}.partial`
  await writeFile(partial, Buffer.from(await dump.arrayBuffer()))
  await rename(partial, template)
  return database
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
