import type { Db } from '../../db/database'

/** The open sessions of an account, newest first (for its page in Equipe). */
export async function openSessions(db: Db, accountId: string, now = new Date()) {
  const rows = await db
    .selectFrom('sessions')
    .select(['created_at', 'expires_at'])
    .where('account_id', '=', accountId)
    .where('expires_at', '>', now)
    .where('ended_at', 'is', null)
    .orderBy('created_at', 'desc')
    .execute()
  return rows.map((row) => ({
    createdAt: new Date(row.created_at).toISOString(),
    expiresAt: new Date(row.expires_at).toISOString(),
  }))
}
