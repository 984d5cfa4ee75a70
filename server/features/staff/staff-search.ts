import { sql, type RawBuilder } from 'kysely'
import { nameSortKey } from '../../../common/name-order'
import type { Db } from '../../db/database'
import type { Engine } from '../../db/portable-sql'
import type { Direction } from './staff-order'

/**
 * Equipe's search: a part of a name or of an e-mail, accents and case ignored ("joao" finds
 * João, "conceicao" Conceição). Names are matched by their sort keys (common/name-order.ts),
 * which are the names folded that way, with the search folded alike; e-mails, stored in lower
 * case, by the search in lower case.
 *
 * Two ways to the same rows: `matches`, a condition on the `accounts` row (LIKE on both columns)
 * that the list applies while it reads its own order, and `indexed`, the same through the
 * trigram index of db/list-migrations.ts (0205), for a term too rare to fill a page that way.
 * A trigram index needs three characters: a shorter search reads the list.
 */
export interface SearchTerms {
  matches: RawBuilder<boolean>
  indexed: RawBuilder<boolean> | null
  /** SQLite: the FTS5 query for account_search_index (staff-total.ts counts from it). */
  ftsQuery: string | null
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`)
const quoteFts = (text: string) => `"${text.replace(/"/g, '""')}"`

export function searchTerms(q: string | undefined, engine: Engine): SearchTerms | null {
  const text = q?.trim()
  if (!text) return null
  const folded = nameSortKey(text)
  const lower = text.toLowerCase()
  const namePattern = `%${escapeLike(folded)}%`
  const emailPattern = `%${escapeLike(lower)}%`
  // PostgreSQL's LIKE escapes with a backslash by default, and pg_trgm reads the pattern only
  // when it is a plain one (no ESCAPE clause); SQLite's LIKE has no escape unless told.
  const matches =
    engine === 'postgres'
      ? sql<boolean>`(accounts.name_sort_key like ${namePattern} or accounts.email like ${emailPattern})`
      : sql<boolean>`(accounts.name_sort_key like ${namePattern} escape '\\' or accounts.email like ${emailPattern} escape '\\')`
  const longEnough = [...folded].length >= 3 && [...lower].length >= 3
  if (!longEnough) return { matches, indexed: null, ftsQuery: null }
  if (engine === 'postgres') return { matches, indexed: matches, ftsQuery: null }
  // The index has just these two columns: a term that is the same folded and lowercased (no
  // accent, the usual case) is one phrase over both, which reads its trigrams' lists once. Two
  // phrases, one a column, read them twice: 2.5 times as long for "conceicao" at 100k people
  // (its count timed by hand in sqlite3 on the data npm run bench -- --only scale seeds).
  const ftsQuery =
    folded === lower
      ? quoteFts(folded)
      : `name_key : ${quoteFts(folded)} OR email : ${quoteFts(lower)}`
  return { matches, indexed: indexedUpTo(ftsQuery, null), ftsQuery }
}

/** A name key and the direction a list is read in: the rows up to it are those no later. */
export interface NameBound {
  key: string
  direction: Direction
}

/** The rows up to a name key in a reading direction (`side` 'from': from it on, the other way). */
const upToKey = (key: string, direction: Direction, side: 'upTo' | 'from' = 'upTo') =>
  (direction === 'asc') === (side === 'upTo')
    ? sql<boolean>`account_search.name_key <= ${key}`
    : sql<boolean>`account_search.name_key >= ${key}`

/**
 * SQLite: the search index joined to account_search (its `account_id`, `name_key`), with
 * `matching` the condition that picks a search's rows. The join is CROSS, which SQLite keeps in
 * the order written: the index's matches first. Left to choose, it may read every row of
 * account_search and ask the index about each (seen with planner statistics, which
 * docs/performance.md says were tried: 11 s for one search among a test's few thousand people).
 */
export const SEARCH_INDEX_ROWS = sql`account_search_index
      cross join account_search on account_search.search_id = account_search_index.rowid`
export const matching = (ftsQuery: string) => sql<boolean>`account_search_index match ${ftsQuery}`

/** SQLite: the accounts the search index finds, only those up to a name key if one is given. */
export function indexedUpTo(ftsQuery: string, bound: NameBound | null): RawBuilder<boolean> {
  const upTo = bound ? sql` and ${upToKey(bound.key, bound.direction)}` : sql``
  return sql<boolean>`accounts.id in (select account_search.account_id
      from ${SEARCH_INDEX_ROWS} where ${matching(ftsQuery)}${upTo})`
}

/**
 * SQLite: the name key of the `depth`-th match in name order (read in `direction`, from a name
 * key on if given), from the search index's own copy of the keys: its matches are sorted without
 * reading a row of `accounts`. Undefined when fewer match.
 */
export async function nameKeyAt(
  db: Db,
  ftsQuery: string,
  depth: number,
  direction: Direction,
  from: string | null,
): Promise<string | undefined> {
  // From the cursor's own key on: people of the same name may follow it.
  const after = from === null ? sql`` : sql` and ${upToKey(from, direction, 'from')}`
  const { rows } = await sql<{ name_key: string }>`select account_search.name_key
      from ${SEARCH_INDEX_ROWS} where ${matching(ftsQuery)}${after}
      order by account_search.name_key ${sql.raw(direction)}
      limit 1 offset ${depth - 1}`.execute(db)
  return rows[0]?.name_key
}
