import { sql } from 'kysely'
import type { SignInDay } from '../../common/api/dashboard'
import type { Db } from '../db/database'

export const DASHBOARD_DAYS = 14

/** Succeeded and failed sign-ins per UTC day, the last 14 days (today last), zeros included. */
export async function signInDays(db: Db, now = new Date()): Promise<SignInDay[]> {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())
  const days = Array.from({ length: DASHBOARD_DAYS }, (_, index) =>
    new Date(today - (DASHBOARD_DAYS - 1 - index) * 86_400_000).toISOString().slice(0, 10),
  )
  // The day is the first 10 characters of the ISO time: substr is the same in both databases.
  const day = sql<string>`substr(at, 1, 10)`
  const rows = await db
    .selectFrom('audit_events')
    .select([day.as('day'), 'type', (eb) => eb.fn.countAll<number | string>().as('count')])
    .where('type', 'in', ['sign_in', 'sign_in_failed'])
    .where('at', '>=', `${days[0]}T00:00:00.000Z`)
    .groupBy([day, 'type'])
    .execute()
  return days.map((date) => {
    const count = (type: string) =>
      Number(rows.find((row) => row.day === date && row.type === type)?.count ?? 0)
    return { day: date, succeeded: count('sign_in'), failed: count('sign_in_failed') }
  })
}
