import { sql } from 'kysely'
import { limitKeys } from '../../accounts/sign-in-limits'
import type { Db } from '../../db/database'

/** Past this many locks in force, the "locked" filter reads the list like any other filter. */
export const FEW_LOCKS = 1000

/**
 * The e-mails of the accounts a lock in force names, when they are few (FEW_LOCKS at most), or
 * null. Equipe's "locked" filter finds those accounts by their e-mail (a list of them, which
 * both engines look up in the e-mail's index and sort) instead of asking every account of the
 * list whether it is locked: locks are few, and the walk along the list found them only at its
 * end. Many locks at once (an attack on every account) are as many rows to find either way.
 */
export async function lockedEmails(db: Db, now = new Date()): Promise<string[] | null> {
  const rows = await db
    .selectFrom('sign_in_limits')
    .select('account')
    .where(
      sql<boolean>`sign_in_limits.key = ${limitKeys.account('').key} || sign_in_limits.account`,
    )
    .where('window_ends_at', '>', now)
    .where('blocked_until', '>', now)
    // In the order of the blocked_until index (db/list-migrations.ts), so that both engines read
    // the locks in force from it whatever their statistics say: PostgreSQL, with none yet on a
    // new index, read every row of the table (345 ms at a year's size, npm run bench -- --only
    // scale).
    .orderBy('blocked_until', 'desc')
    .limit(FEW_LOCKS + 1)
    .execute()
  if (rows.length > FEW_LOCKS) return null
  return rows.flatMap((row) => (row.account === null ? [] : [row.account]))
}
