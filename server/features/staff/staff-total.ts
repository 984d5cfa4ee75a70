import { sql, type RawBuilder } from 'kysely'
import type { Access } from '../../../common/api/roles'
import type { StaffQuery } from '../../../common/api/staff'
import { BUILT_IN_ROLE_IDS } from '../../../common/permissions'
import type { Db } from '../../db/database'
import { matching, SEARCH_INDEX_ROWS, type SearchTerms } from './staff-search'

/**
 * How many accounts Equipe's list holds, without reading them (docs/administration.md, "How
 * Equipe says where you are"): filtered by status, role, team and second factor only, the sum of
 * the few rows of account_tallies
 * that the database keeps in step with every write (db/list-migrations.ts, 0203), exact at any
 * size. With a search or the lock filter, counted up to COUNT_CAP and no
 * further: past it the list says "mais de 100 contas", and the count costs at most that many
 * matches (a page of a search is 20; a hundred says "refine it" as well as any number).
 */
export const COUNT_CAP = 100
/**
 * How far the last page's number is counted (`page=last`). Past it the list has no numbered end:
 * counting every match of "empresa" among 100,000 people took 125-166 ms on SQLite (226-257 ms
 * among the active), the event loop held all along; to five thousand, 12-22 ms (timed by hand on
 * the data npm run bench -- --only scale seeds).
 */
export const LAST_PAGE_COUNT_CAP = 5_000

export interface StaffTotal {
  count: number
  /** false: there are more than `count` (COUNT_CAP). */
  exact: boolean
}

export async function staffTotal(
  db: Db,
  query: StaffQuery,
  access: Access,
  conditions: RawBuilder<boolean>[],
  search: SearchTerms | null,
  /** Counted up to this many: COUNT_CAP, or LAST_PAGE_COUNT_CAP for the last page's number. */
  cap: number,
): Promise<StaffTotal> {
  if (!search && !query.locked) {
    return { count: await tallied(db, query, access), exact: true }
  }
  const limit = sql`limit ${cap + 1}`
  const filtered = (extra: RawBuilder<boolean>[]) => {
    const all = [...conditions, ...extra]
    return all.length === 0 ? sql`1 = 1` : sql.join(all, sql` and `)
  }
  // A search counts its matches from the search index itself (lazily, so the cap bounds it). The
  // joins are CROSS: SQLite then keeps them in the order written. Left to choose, with a status
  // filter it read the accounts of that status and asked the index about each one: 3.5 s for
  // "joao" among the active of 100k people, against 1.4 ms from the index's matches (the query
  // timed alone by hand, on the data npm run bench -- --only scale seeds).
  const counted = search?.ftsQuery
    ? sql<{
        count: number | string
      }>`select count(*) as count from (select 1 from ${SEARCH_INDEX_ROWS}
        cross join accounts on accounts.id = account_search.account_id
        where ${matching(search.ftsQuery)} and ${filtered([])} ${limit}) as counted`
    : sql<{ count: number | string }>`select count(*) as count from (select 1 from accounts
        where ${filtered(search ? [search.matches] : [])} ${limit}) as counted`
  const count = Number((await counted.execute(db)).rows[0]?.count ?? 0)
  return count <= cap ? { count, exact: true } : { count: cap, exact: false }
}

/**
 * The share of all accounts that the filters (status, role, team, second factor) and the
 * viewer's reach keep, from the tallies: exact, and no scan.
 */
export async function filteredShare(db: Db, query: StaffQuery, access: Access): Promise<number> {
  const all = await tallied(db, {}, { ...access, scope: 'all' })
  return all === 0 ? 1 : (await tallied(db, query, access)) / all
}

/** The sum of the tallies the filters select (status as Equipe shows it, role, team, scope). */
async function tallied(db: Db, query: StaffQuery, access: Access): Promise<number> {
  if (access.scope === 'team' && access.teamId === null) return 0
  let rows = db
    .selectFrom('account_tallies')
    .select((eb) => eb.fn.sum<number | string | null>('count').as('count'))
  if (access.scope === 'team') rows = rows.where('team_key', '=', access.teamId!.toLowerCase())
  if (query.status) rows = rows.where('status', '=', query.status)
  if (query.role === 'admin') rows = rows.where('role_id', '=', BUILT_IN_ROLE_IDS.admin)
  else if (query.role === 'staff') rows = rows.where('role_id', '<>', BUILT_IN_ROLE_IDS.admin)
  if (query.roleId) rows = rows.where('role_id', '=', query.roleId.toLowerCase())
  if (query.mfa) rows = rows.where('mfa', '=', query.mfa === 'true')
  if (query.teamId === 'none') rows = rows.where('team_key', '=', '')
  else if (query.teamId) rows = rows.where('team_key', '=', query.teamId.toLowerCase())
  const { count } = await rows.executeTakeFirstOrThrow()
  return Number(count ?? 0)
}
