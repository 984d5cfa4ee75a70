import { newToken, tokenHash } from '../../accounts/tokens'
import type { Db } from '../../db/database'

/**
 * The provisioning tokens' rows (db/provisioning-migrations.ts): 256 random bits shown once,
 * their SHA-256 kept (accounts/tokens.ts), looked up by that hash. A session token is never in
 * this table nor a provisioning token in `sessions`, so neither opens the other's routes.
 */

/** last_used_at is written at most this often: one write a minute, not one per request. */
export const LAST_USED_GRANULARITY_MS = 60_000

export async function createScimToken(
  db: Db,
  name: string,
  creator: { id: string; name: string },
  at: Date,
): Promise<{ id: string; token: string }> {
  const token = newToken()
  const id = crypto.randomUUID()
  await db
    .insertInto('scim_tokens')
    .values({
      id,
      name,
      token_hash: tokenHash(token),
      created_at: at,
      last_used_at: null,
      created_by: creator.id,
      created_by_name: creator.name,
    })
    .execute()
  return { id, token }
}

/** The token's row, or undefined for a token that is not (or no longer) one. */
export async function findScimToken(db: Db, token: string, at: Date) {
  const row = await db
    .selectFrom('scim_tokens')
    .select(['id', 'name', 'last_used_at'])
    .where('token_hash', '=', tokenHash(token))
    .executeTakeFirst()
  if (!row) return undefined
  if (
    row.last_used_at === null ||
    at.getTime() - row.last_used_at.getTime() >= LAST_USED_GRANULARITY_MS
  )
    await db.updateTable('scim_tokens').set({ last_used_at: at }).where('id', '=', row.id).execute()
  return { id: row.id, name: row.name }
}
