import type { AuditDetails, AuditType } from '../../common/api/audit'
import type { Db } from '../db/database'
import { queueRequest } from '../mail/outbox'
import { OPTIONAL_NOTICES, SECURITY_NOTICE_MAIL, securityNoticeKind } from './security-notice-kinds'

/** What a notice is decided on: the event about to be written (audit-log/record-audit.ts). */
export interface NoticeEvent {
  type: AuditType
  accountId: string | null
  details: AuditDetails
}

/** The notice an event will send: the address it goes to (its words are composed at delivery). */
export interface DueNotice {
  recipient: string
}

/**
 * Whether the owner is to be told of an event, decided before the event is written so that the
 * event itself says so (`notice: true`): the log keeps one line, not a second "notice sent" one.
 * Nothing for an account that is gone, or for a notice its owner turned off.
 */
export async function dueNotice(db: Db, event: NoticeEvent): Promise<DueNotice | undefined> {
  const kind = securityNoticeKind(event.type, event.details)
  if (kind === undefined || event.accountId === null) return undefined
  const account = await db
    .selectFrom('accounts')
    .select(['email', 'notice_new_browser'])
    .where('id', '=', event.accountId)
    .executeTakeFirst()
  if (!account) return undefined
  if (OPTIONAL_NOTICES.has(kind) && !account.notice_new_browser) return undefined
  return { recipient: account.email }
}

/**
 * Queues the owner's notice of the event just written, in the event's own transaction (the
 * notice exists exactly when the change does). The outbox row holds only the event's id: its
 * sender composes the mail from the audit log at delivery
 * (features/security-notices/security-notice-mail.ts), so the row keeps no personal words.
 */
export async function queueSecurityNotice(
  db: Db,
  notice: DueNotice,
  eventId: string,
  at: Date,
): Promise<void> {
  await queueRequest(db, SECURITY_NOTICE_MAIL, notice.recipient, { event: eventId }, at)
}
