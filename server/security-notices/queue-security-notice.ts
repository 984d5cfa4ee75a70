import type { AuditDetails, AuditType } from '../../common/api/audit'
import type { Db } from '../db/database'
import { queueRequest } from '../mail/outbox'
import {
  OPTIONAL_NOTICES,
  SECURITY_NOTICE_MAIL,
  securityNoticeKind,
  type SecurityNoticeKind,
} from './security-notice-kinds'

/** What queueSecurityNotice needs of the event just written (audit-log/record-audit.ts). */
export interface NoticeEvent {
  id: string
  type: AuditType
  accountId: string | null
  details: AuditDetails
  at: Date
}

/**
 * Queues the owner's notice of an event, in the event's own transaction (the notice exists
 * exactly when the change does), and says which kind it queued. The outbox row holds only the
 * event's id: its sender composes the mail from the audit log at delivery
 * (features/security-notices/security-notice-mail.ts), so the row keeps no personal words.
 * Nothing for an account that is gone, or for a notice its owner turned off.
 */
export async function queueSecurityNotice(
  db: Db,
  event: NoticeEvent,
): Promise<SecurityNoticeKind | undefined> {
  const kind = securityNoticeKind(event.type, event.details)
  if (kind === undefined || event.accountId === null) return undefined
  const account = await db
    .selectFrom('accounts')
    .select(['email', 'notice_new_browser'])
    .where('id', '=', event.accountId)
    .executeTakeFirst()
  if (!account) return undefined
  if (OPTIONAL_NOTICES.has(kind) && !account.notice_new_browser) return undefined
  await queueRequest(db, SECURITY_NOTICE_MAIL, account.email, { event: event.id }, event.at)
  return kind
}
