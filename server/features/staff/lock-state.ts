import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely'
import { isLockedSql, limitKeys } from '../../accounts/sign-in-limits'

/**
 * Whether an account of Equipe's list is locked: SignInLimits.isLocked (accounts/sign-in-limits.ts)
 * as a condition on the `accounts` row, so the list filters and shows it in one query. Unlocking
 * is account-administration.ts's unlockAccount.
 */
export function lockedExpression(now = new Date()): Expression<SqlBool> {
  return isLockedSql(sql<string>`accounts.email`, now)
}

/**
 * The same condition for Equipe's "locked" filter, from the other side: the accounts named by a
 * lock in force. The locks are few, so the list reads them and finds their accounts by e-mail,
 * rather than asking every account whether it is locked.
 */
export function lockedAccountsSql(now = new Date()): RawBuilder<boolean> {
  return sql<boolean>`accounts.email in (select sign_in_limits.account from sign_in_limits
    where sign_in_limits.key = ${limitKeys.account('').key} || sign_in_limits.account
      and sign_in_limits.window_ends_at > ${now} and sign_in_limits.blocked_until > ${now})`
}
