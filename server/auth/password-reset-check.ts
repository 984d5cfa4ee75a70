import type { Db } from '../db/database'
import { tokenHash } from './tokens'

/**
 * Whether a mailed reset link would still work, without using it up: the same conditions as
 * usePasswordReset (password-resets.ts), read instead of written. The page asks when the link
 * opens, so a used or fake link is said at once, not after a new password was typed twice.
 */
export async function isUsablePasswordReset(
  db: Db,
  token: string,
  now = new Date(),
): Promise<boolean> {
  const row = await db
    .selectFrom('password_resets')
    .select('account_id')
    .where('token_hash', '=', tokenHash(token))
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst()
  return row !== undefined
}
