import type { SignInDay } from '../../../common/api/dashboard'
import type { Access } from '../../../common/api/roles'
import type { Db } from '../../db/database'
import { reachableEventSql } from '../../roles/team-scope'

export const DASHBOARD_DAYS = 14

/** Succeeded and failed sign-ins per UTC day, the last 14 days (today last), zeros included. */
export async function signInDays(db: Db, access: Access, now = new Date()): Promise<SignInDay[]> {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())
  const days = Array.from({ length: DASHBOARD_DAYS }, (_, index) =>
    new Date(today - (DASHBOARD_DAYS - 1 - index) * 86_400_000).toISOString().slice(0, 10),
  )
  // The times are read as Dates on both engines and put into days here: no engine's date
  // functions, so the two agree on every day.
  const rows = await db
    .selectFrom('audit_events')
    .select(['at', 'type'])
    .where('type', 'in', ['sign_in', 'sign_in_failed'])
    .where('at', '>=', new Date(`${days[0]}T00:00:00.000Z`))
    .where(reachableEventSql(access))
    .execute()
  const counts = new Map(days.map((day) => [day, { succeeded: 0, failed: 0 }]))
  for (const row of rows) {
    const figures = counts.get(row.at.toISOString().slice(0, 10))
    if (!figures) continue
    if (row.type === 'sign_in') figures.succeeded += 1
    else figures.failed += 1
  }
  return days.map((day) => ({ day, ...counts.get(day)! }))
}
