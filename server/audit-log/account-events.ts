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
