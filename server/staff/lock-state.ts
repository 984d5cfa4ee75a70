import { sql, type Expression, type SqlBool } from 'kysely'
import { LIMITS, signInKeys } from '../auth/auth-service'
import type { Db } from '../db/database'

/**
 * Whether an account is locked by failed sign-ins, read from the sign-in throttle the auth
 * service keeps (one count per e-mail). Issue 12 turns the lock into a state of its own; this
 * module is the one place that has to follow.
 */
export function lockedExpression(now = new Date()): Expression<SqlBool> {
  const windowStart = new Date(now.getTime() - LIMITS.failureWindowSeconds * 1000)
  return sql<SqlBool>`exists (select 1 from auth_throttle where auth_throttle.key = ${signInKeys.account('')} || accounts.email and auth_throttle.count >= ${LIMITS.failuresPerAccount} and auth_throttle.window_started_at > ${windowStart})`
}

/** Ends a lock: the failure count of that e-mail starts over. Whether there was one. */
export async function clearLock(db: Db, email: string, now = new Date()): Promise<boolean> {
  const windowStart = new Date(now.getTime() - LIMITS.failureWindowSeconds * 1000)
  const row = await db
    .deleteFrom('auth_throttle')
    .where('key', '=', signInKeys.account(email))
    .returning(['count', 'window_started_at'])
    .executeTakeFirst()
  return (
    row !== undefined &&
    row.count >= LIMITS.failuresPerAccount &&
    row.window_started_at > windowStart
  )
}
