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
 * So, from the hourly housekeeping (and at start): a database never analysed is analysed whole,
 * and after that `pragma optimize` analyses again the tables whose size has changed much since.
 * `analysis_limit` (sqlite-database.ts) keeps ANALYZE to a sample of each index: 19–31 ms on that
 * database. PostgreSQL's autovacuum keeps its own statistics.
 */
export async function refreshPlannerStatistics(db: Db): Promise<void> {
  if (engineOf(db) !== 'sqlite') return
  const { rows } = await sql`select 1 from sqlite_master where name = 'sqlite_stat1'`.execute(db)
  await sql.raw(rows.length === 0 ? 'analyze' : 'pragma optimize').execute(db)
}
