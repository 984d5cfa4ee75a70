import { sql } from 'kysely'
import type { Database } from '../db/database'

/**
 * Holds what `GET /api/audit` reads until `release()`: a request for it stays in the middle of
 * its work, holding its place in the API's queue (http/admission.ts), for as long as a test
 * needs. On SQLite this transaction holds the one connection; on PostgreSQL, the table's lock.
 * Resolves once it holds it; `done` settles when the transaction has ended.
 */
export async function holdAuditLog(
  database: Database,
): Promise<{ release: () => void; done: Promise<void> }> {
  let release = () => {}
  let holding = () => {}
  const held = new Promise<void>((resolve) => (holding = resolve))
  const done = database.db.transaction().execute(async (trx) => {
    if (database.engine === 'postgres') {
      await sql`lock table audit_events in access exclusive mode`.execute(trx)
    }
    holding()
    await new Promise<void>((resolve) => (release = resolve))
  })
  await held
  return { release: () => release(), done }
}
