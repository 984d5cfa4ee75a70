import type { AuditDetails, AuditType } from '../../common/api/audit'
import type { Db } from '../db/database'
import type { RequestOrigin } from '../http/request-origin'
import { party, recordAudit } from './record-audit'

/**
 * What someone does to their own account (sign in, sign out, change or reset the password,
 * register): the account is both actor and target. The one call the auth service makes, inside
 * its transaction where it has one. An unknown account (a failed sign-in with an e-mail nobody
 * has) is recorded without one, the e-mail tried in the details.
 */
export async function recordAccountEvent(
  db: Db,
  type: AuditType,
  accountId: string | undefined,
  origin: RequestOrigin | undefined,
  details: AuditDetails = {},
): Promise<void> {
  const account = accountId
    ? await db
        .selectFrom('accounts')
        .select(['id', 'name', 'email'])
        .where('id', '=', accountId)
        .executeTakeFirst()
    : undefined
  const who = account ? party(account) : null
  await recordAudit(db, { type, actor: who, account: who, origin, details })
}

/**
 * Whether a password about to be set from a mailed link is the first one of an invited account:
 * invited, and never signed in nor set a password since. That person chose no password before,
 * so "your password was changed" would be news about nothing.
 */
export async function isInvitationsFirstPassword(db: Db, accountId: string): Promise<boolean> {
  const events = await db
    .selectFrom('audit_events')
    .select('type')
    .where('account_id', '=', accountId)
    .where('type', 'in', ['invited', 'sign_in', 'password_reset', 'password_changed'])
    .execute()
  return events.some((e) => e.type === 'invited') && events.every((e) => e.type === 'invited')
}
