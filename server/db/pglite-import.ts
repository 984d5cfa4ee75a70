import { Worker } from 'node:worker_threads'
import type { Db } from './database'
import { nameColumns } from './name-columns'
import { builtInRoleId, roleColumns } from './role-columns'

/** The only schema the PGlite versions ever had: the first migration. */
const KNOWN_MIGRATIONS = ['2026-11-21-0001-accounts-and-sessions']

/** Every table and column of that schema, copied as they are (ids, hashes, times). */
const TABLES = {
  accounts: ['id', 'name', 'email', 'password_hash', 'role', 'status', 'created_at', 'updated_at'],
  sessions: ['token_hash', 'account_id', 'created_at', 'expires_at'],
  password_resets: ['token_hash', 'account_id', 'created_at', 'expires_at', 'used_at'],
  auth_throttle: ['key', 'count', 'window_started_at'],
} as const

type Table = keyof typeof TABLES
type Rows = Record<Table, Record<string, unknown>[]> & { migrations: string[] }

/**
 * PGlite is read in a worker thread: it holds ~700 MB while open, which a worker gives back to
 * the system when it ends, so the server keeps the small footprint it has without it. Its module
 * is resolved here and handed over, as eval'd code resolves nothing on its own.
 */
const READER = `
const { parentPort, workerData } = require('node:worker_threads')
;(async () => {
  const { PGlite } = await import(workerData.pgliteUrl)
  const pglite = new PGlite(workerData.folder)
  try {
    const has = async (table) =>
      (await pglite.query('select to_regclass($1) is not null as present', [table])).rows[0].present
    const out = { migrations: [] }
    if (await has('kysely_migration')) {
      out.migrations = (await pglite.query('select name from kysely_migration order by name')).rows.map((row) => row.name)
    }
    for (const [table, columns] of Object.entries(workerData.tables)) {
      out[table] = (await has(table))
        ? (await pglite.query('select ' + columns.join(', ') + ' from ' + table)).rows
        : []
    }
    parentPort.postMessage(out)
  } finally {
    await pglite.close()
  }
})().catch((error) => { throw error })
`

function readPglite(folder: string): Promise<Rows> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(READER, {
      eval: true,
      workerData: {
        folder,
        tables: TABLES,
        pgliteUrl: import.meta.resolve('@electric-sql/pglite'),
      },
    })
    let rows: Rows | undefined
    worker.once('message', (message: Rows) => (rows = message))
    worker.once('error', reject)
    worker.once('exit', (code) =>
      rows
        ? resolve(rows)
        : reject(new Error(`reading ${folder} ended without data (exit ${code})`)),
    )
  })
}

/**
 * Copies an earlier version's PGlite database into `target` (migrated, empty), in one
 * transaction. Refuses a schema it does not know rather than drop what it cannot place.
 */
export async function importPglite(folder: string, target: Db): Promise<Record<Table, number>> {
  const rows = await readPglite(folder)
  const unknown = rows.migrations.filter((name) => !KNOWN_MIGRATIONS.includes(name))
  if (unknown.length > 0) {
    throw new Error(
      `${folder} has migrations this version does not know (${unknown.join(', ')}): run the version that made it`,
    )
  }
  const counts = {} as Record<Table, number>
  await target.transaction().execute(async (trx) => {
    for (const table of Object.keys(TABLES) as Table[]) {
      // Sessions of that version had no id nor last use: they get them as the 0200 migration
      // gives them to sessions open at the upgrade.
      // Accounts get the sort key of their name, as the 0500 migration gives it to accounts that
      // exist at the upgrade (name-columns.ts).
      const tableRows =
        table === 'sessions'
          ? rows.sessions.map((row) => ({
              ...row,
              id: crypto.randomUUID(),
              last_seen_at: row.created_at,
            }))
          : table === 'accounts'
            ? rows.accounts.map((row) => ({
                ...row,
                ...nameColumns(String(row.name)),
                // Roles came later: an admin becomes Administrador, anyone else Equipe.
                ...roleColumns(builtInRoleId(row.role === 'admin' ? 'admin' : 'staff')),
              }))
            : rows[table]
      counts[table] = tableRows.length
      // Within SQLite's 32,766 bound parameters per statement.
      for (let start = 0; start < tableRows.length; start += 500) {
        await trx
          .insertInto(table)
          .values(tableRows.slice(start, start + 500))
          .execute()
      }
    }
  })
  return counts
}
