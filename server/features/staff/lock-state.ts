import { sql, type Expression, type SqlBool } from 'kysely'
import { isLockedSql } from '../../accounts/sign-in-limits'

/**
 * Whether an account of Equipe's list is locked: SignInLimits.isLocked (accounts/sign-in-limits.ts)
 * as a condition on the `accounts` row, so the list filters and shows it in one query. Unlocking
 * is account-administration.ts's unlockAccount.
 */
export function lockedExpression(now = new Date()): Expression<SqlBool> {
  return isLockedSql(sql<string>`accounts.email`, now)
}
