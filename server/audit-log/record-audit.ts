import type { AuditDetails, AuditType } from '../../common/api/audit'
import type { Db } from '../db/database'
import { keepQuotedEmails } from '../db/quoted-emails'
import type { RequestOrigin } from '../http/request-origin'
import { dueNotice, queueSecurityNotice } from '../security-notices/queue-security-notice'
import { newEventId } from './event-id'

/** Who an event names: enough to read the log after the account is gone. */
export interface AuditParty {
  id: string
  name: string
  email: string
}

export interface AuditEntry {
  type: AuditType
  actor?: AuditParty | null
  account?: AuditParty | null
  origin?: RequestOrigin
  details?: AuditDetails
  at?: Date
}

/** Keys that must never reach the log, whatever a caller passes by mistake. */
const SECRET_KEY = /password|token|secret|code|hash/i

/**
 * Writes one event. Give it the transaction of the change it records, so the two are kept or
 * lost together: a change that fails leaves no event behind, and no event claims a change that
 * did not happen. An event its owner must hear of (security-notices/security-notice-kinds.ts)
 * queues the notice in the same transaction and says so itself (`notice: true`, "aviso enviado
 * por e-mail"): one line in the log, where a "notice_sent" event of its own once doubled it.
 */
export async function recordAudit(db: Db, entry: AuditEntry): Promise<void> {
  // The event and what is kept beside it (its quoted addresses, its notice, the sign-in counts)
  // are written together: an event left without its addresses would escape an anonymisation.
  if (!db.isTransaction) return db.transaction().execute((trx) => recordAudit(trx, entry))
  const details: AuditDetails = Object.fromEntries(
    Object.entries(entry.details ?? {}).filter(([key]) => !SECRET_KEY.test(key)),
  )
  const id = newEventId()
  const at = entry.at ?? new Date()
  const accountId = entry.account?.id ?? null
  const notice = await dueNotice(db, { type: entry.type, accountId, details })
  if (notice) details.notice = true
  const json = JSON.stringify(details)
  await db
    .insertInto('audit_events')
    .values({
      id,
      at,
      type: entry.type,
      actor_id: entry.actor?.id ?? null,
      actor_name: entry.actor?.name ?? null,
      actor_email: entry.actor?.email ?? null,
      account_id: entry.account?.id ?? null,
      account_name: entry.account?.name ?? null,
      account_email: entry.account?.email ?? null,
      ip: entry.origin?.ip ?? null,
      user_agent: entry.origin?.userAgent ?? null,
      details: json,
    })
    .execute()
  await keepQuotedEmails(db, [{ id, details: json }])
  if (notice) await queueSecurityNotice(db, notice, id, at)
  if (entry.type === 'sign_in' || entry.type === 'sign_in_failed') {
    await countSignIn(db, entry.type === 'sign_in', accountId, at)
  }
}

/**
 * What the lists keep of a sign-in beside the event, in its transaction: the account's last
 * sign-in (Equipe shows and sorts by it) and the day's count for its team (Início's chart); see
 * db/list-migrations.ts. Last in recordAudit, so every transaction takes the day's row after
 * its other rows, in the same order: two sign-ins cannot wait for each other in a circle.
 */
async function countSignIn(
  db: Db,
  succeeded: boolean,
  accountId: string | null,
  at: Date,
): Promise<void> {
  if (succeeded && accountId !== null) {
    await db
      .updateTable('accounts')
      .set({ last_sign_in_at: at })
      .where('id', '=', accountId)
      .where((where) =>
        where.or([where('last_sign_in_at', 'is', null), where('last_sign_in_at', '<', at)]),
      )
      .execute()
  }
  const team = accountId
    ? await db
        .selectFrom('accounts')
        .select('team_id')
        .where('id', '=', accountId)
        .executeTakeFirst()
    : undefined
  await db
    .insertInto('sign_in_days')
    .values({
      day: at.toISOString().slice(0, 10),
      team_key: team?.team_id ?? '',
      succeeded: succeeded ? 1 : 0,
      failed: succeeded ? 0 : 1,
    })
    .onConflict((conflict) =>
      conflict.columns(['day', 'team_key']).doUpdateSet((eb) => ({
        succeeded: eb('sign_in_days.succeeded', '+', eb.ref('excluded.succeeded')),
        failed: eb('sign_in_days.failed', '+', eb.ref('excluded.failed')),
      })),
    )
    .execute()
}

/** The party of an account row. */
export const party = (account: { id: string; name: string; email: string }): AuditParty => ({
  id: account.id,
  name: account.name,
  email: account.email,
})
