import type { SignInDay } from '../../../common/api/dashboard'
import type { Access } from '../../../common/api/roles'
import type { Db } from '../../db/database'

export const DASHBOARD_DAYS = 14

/**
 * Início's figures are read from the tallies the database keeps beside the rows they count
 * (db/list-migrations.ts): a handful of rows whatever the number of accounts and events. With a
 * role of scope `team`, those of the caller's team; a sign-in counts for the team its person
 * was in on that day.
 */
const teamOf = (access: Access): string | null | undefined =>
  access.scope === 'all' ? undefined : access.teamId === null ? null : access.teamId.toLowerCase()

/** Accounts per status as Equipe shows it (`invited` apart from `active`). */
export async function accountsByStatus(db: Db, access: Access): Promise<Map<string, number>> {
  const team = teamOf(access)
  if (team === null) return new Map()
  let rows = db
    .selectFrom('account_tallies')
    .select(['status', (eb) => eb.fn.sum<number | string>('count').as('count')])
    .groupBy('status')
  if (team !== undefined) rows = rows.where('team_key', '=', team)
  return new Map((await rows.execute()).map((row) => [row.status, Number(row.count)]))
}

/** Succeeded and failed sign-ins per UTC day, the last 14 days (today last), zeros included. */
export async function signInDays(db: Db, access: Access, now = new Date()): Promise<SignInDay[]> {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())
  const days = Array.from({ length: DASHBOARD_DAYS }, (_, index) =>
    new Date(today - (DASHBOARD_DAYS - 1 - index) * 86_400_000).toISOString().slice(0, 10),
  )
  const team = teamOf(access)
  const counts = new Map(days.map((day) => [day, { succeeded: 0, failed: 0 }]))
  if (team !== null) {
    let rows = db
      .selectFrom('sign_in_days')
      .select([
        'day',
        (eb) => eb.fn.sum<number | string>('succeeded').as('succeeded'),
        (eb) => eb.fn.sum<number | string>('failed').as('failed'),
      ])
      .where('day', '>=', days[0]!)
      .groupBy('day')
    if (team !== undefined) rows = rows.where('team_key', '=', team)
    for (const row of await rows.execute()) {
      const figures = counts.get(row.day)
      if (!figures) continue
      figures.succeeded = Number(row.succeeded)
      figures.failed = Number(row.failed)
    }
  }
  return days.map((day) => ({ day, ...counts.get(day)! }))
}
