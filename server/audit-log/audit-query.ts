import { sql } from 'kysely'
import type { Access } from '../../common/api/roles'
import { reachableEventSql } from '../roles/team-scope'
import type { AuditEvent, AuditQuery, AuditType } from '../../common/api/audit'
import { normalizeAccountId } from '../../common/account-id'
import { browserName } from '../../common/browser-name'
import type { Db } from '../db/database'
import { deleteInBatches } from '../db/batched-delete'
import type { AuditEventsTable } from '../db/schema'

/** Events per page of the Auditoria screen. */
export const AUDIT_PAGE_SIZE = 50

const party = (id: string | null, name: string | null, email: string | null) =>
  id === null ? null : { id, name: name ?? '', email: email ?? '' }

/**
 * A row as the API and the CSV give it. Called for every row of an export (a million at a
 * year's size): nothing made per call that can be made once (npm run bench -- --only scale).
 */
export function toAuditEvent(row: AuditEventsTable): AuditEvent {
  let details: AuditEvent['details'] = {}
  if (row.details !== '{}') {
    try {
      details = JSON.parse(row.details) as AuditEvent['details']
    } catch {
      // A row written by hand; the event still shows.
    }
  }
  return {
    id: row.id,
    at: row.at.toISOString(),
    type: row.type as AuditType,
    actor: party(row.actor_id, row.actor_name, row.actor_email),
    account: party(row.account_id, row.account_name, row.account_email),
    ip: row.ip,
    userAgent: row.user_agent,
    browser: browserName(row.user_agent),
    details,
  }
}

/** The cursor is the last event's time and id: the next page starts strictly after both. */
export const cursorOf = (event: { at: string; id: string }) => `${event.at}~${event.id}`

function parseCursor(cursor: string): { at: Date; id: string } | undefined {
  const [at, rawId] = cursor.split('~')
  const id = rawId === undefined ? null : normalizeAccountId(rawId)
  if (!at || id === null || Number.isNaN(Date.parse(at))) return undefined
  return { at: new Date(at), id }
}

/** The rows, newest first, `limit` at most, matching every filter given. */
export async function findAuditRows(
  db: Db,
  filters: AuditQuery,
  limit: number,
  access?: Access,
): Promise<AuditEventsTable[]> {
  let query = db.selectFrom('audit_events').selectAll()
  if (access) query = query.where(reachableEventSql(access))
  if (filters.type) query = query.where('type', '=', filters.type)
  if (filters.account) query = query.where('account_id', '=', filters.account.toLowerCase())
  if (filters.actor) query = query.where('actor_id', '=', filters.actor.toLowerCase())
  if (filters.from) query = query.where('at', '>=', new Date(filters.from))
  if (filters.to) query = query.where('at', '<', new Date(filters.to))
  const cursor = filters.before ? parseCursor(filters.before) : undefined
  // A row comparison, which both engines read as where to start in the (at, id) index, the
  // (account_id, at, id) or the (actor_id, at) one: `at < x or (at = x and id < y)` was a filter
  // PostgreSQL applied to every row from the newest on, so a deep page walked the whole log.
  if (cursor) query = query.where(sql<boolean>`(at, id) < (${cursor.at}, ${cursor.id})`)
  return query.orderBy('at', 'desc').orderBy('id', 'desc').limit(limit).execute()
}

/** Newest first, `limit` at most, matching every filter given, as the API shows them. */
export async function findAuditEvents(
  db: Db,
  filters: AuditQuery,
  limit: number,
  access?: Access,
): Promise<AuditEvent[]> {
  return (await findAuditRows(db, filters, limit, access)).map(toAuditEvent)
}

/** One page, and the cursor of the next (null when there is none). */
export async function auditPage(
  db: Db,
  filters: AuditQuery,
  access?: Access,
): Promise<{ events: AuditEvent[]; next: string | null }> {
  const rows = await findAuditEvents(db, filters, AUDIT_PAGE_SIZE + 1, access)
  const events = rows.slice(0, AUDIT_PAGE_SIZE)
  const last = events.at(-1)
  return { events, next: rows.length > AUDIT_PAGE_SIZE && last ? cursorOf(last) : null }
}

/**
 * Drops events older than the retention (AUDIT_RETENTION days), and the sign-in counts of those
 * days, a batch at a time (db/batched-delete.ts).
 */
export async function pruneAudit(db: Db, retentionDays: number, now = new Date()): Promise<void> {
  const cutoff = new Date(now.getTime() - retentionDays * 86_400_000)
  await deleteInBatches(db, (limit) =>
    db
      .deleteFrom('audit_events')
      .where(
        'id',
        'in',
        db
          .selectFrom('audit_events')
          .select('id')
          .where('at', '<', cutoff)
          .orderBy('at')
          .limit(limit),
      ),
  )
  await db.deleteFrom('sign_in_days').where('day', '<', cutoff.toISOString().slice(0, 10)).execute()
}
