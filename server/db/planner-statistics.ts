import { sql } from 'kysely'
import type { Db } from './database'
import { engineOf } from './portable-sql'

/**
 * SQLite's query planner weighs an index by the statistics ANALYZE leaves in sqlite_stat1; with
 * none it guesses that an equality on an indexed expression selects few rows. At a year's size
 * (npm run bench -- --only scale's 100k people) that guess made Equipe's "Ativos" sorted by
 * creation read all 85,000 active accounts through the status index and sort them: 273 ms, against
 * 0.7 ms along the order's own index once the statistics said that most accounts are active.
 *
 * Only `accounts` is analysed, whole: its many indexes over few distinct values are what the
 * planner must weigh, and the other lists were planned well without statistics. A sampled
 * ANALYZE (`analysis_limit`) was no good: it counted about a thousand accounts per role where
 * there are 33,000, and Equipe sorted by name went from 0.5 to 454 ms. A whole one takes 182 ms
 * at 100k people (the bench prints it), so it runs only when needed: from the housekeeping, at
 * start and every hour, when there are none yet or the number of accounts has doubled or halved
 * since. PostgreSQL's autovacuum keeps its own statistics.
 */
export async function refreshPlannerStatistics(db: Db): Promise<boolean> {
  if (engineOf(db) !== 'sqlite') return false
  const now = await accountCount(db)
  const then = await analysedAccountCount(db)
  // Counted from 100 on, so that a small organisation's first people do not each call for one.
  if (then !== null && Math.abs(Math.log2((now + 100) / (then + 100))) < 1) return false
  await sql`analyze accounts`.execute(db)
  return true
}

/** The accounts, from the tallies the database keeps (db/list-migrations.ts): no scan. */
async function accountCount(db: Db): Promise<number> {
  const { rows } = await sql<{ count: number | null }>`
    select sum(count) as count from account_tallies`.execute(db)
  return Number(rows[0]?.count ?? 0)
}

/** How many accounts there were when `accounts` was last analysed; null: never. */
async function analysedAccountCount(db: Db): Promise<number | null> {
  const { rows: tables } = await sql`
    select 1 from sqlite_master where type = 'table' and name = 'sqlite_stat1'`.execute(db)
  if (tables.length === 0) return null
  // Each row's stat starts with the rows of its index (or, for an empty table, its table).
  const { rows } = await sql<{ stat: string }>`
    select stat from sqlite_stat1 where tbl = 'accounts' limit 1`.execute(db)
  return rows[0] ? Number(rows[0].stat.split(' ')[0]) : null
}
