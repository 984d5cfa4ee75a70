import { join } from 'node:path'
import Libsql from 'libsql'

/**
 * Moves back the last use of every session of a server's embedded database (its DATA_DIR), as
 * that long without a call leaves it: the server then finds them idle (SESSION_IDLE_TIMEOUT)
 * without the test waiting for it. Written while the server runs, as an operator's sqlite3 would:
 * the server reads the row at each call. Timestamps are stored as Date.toISOString() writes them
 * (server/db/portable-sql.ts).
 */
export function leaveSessionsUnused(dataDir: string, seconds: number): void {
  const db = new Libsql(join(dataDir, 'painel.db'), { timeout: 5000 })
  try {
    const lastUse = new Date(Date.now() - seconds * 1000).toISOString()
    db.prepare('update sessions set last_seen_at = ?').run(lastUse)
  } finally {
    db.close()
  }
}
