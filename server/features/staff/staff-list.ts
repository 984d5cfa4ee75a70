import { sql, type RawBuilder } from 'kysely'
import {
  STAFF_PAGE_SIZE,
  type StaffItem,
  type StaffList,
  type StaffQuery,
} from '../../../common/api/staff'
import type { Db } from '../../db/database'
import { engineOf, type Engine } from '../../db/portable-sql'
import { isOpenInvitation } from '../../accounts/accounts'
import type { Access } from '../../../common/api/roles'
import { outrankingRoles } from '../../roles/rank'
import { reachableSql } from '../../roles/team-scope'
import { HttpError } from '../../http/errors'
import { isLockedSql } from '../../accounts/sign-in-limits'
import {
  afterPosition,
  byLookup,
  positionOf,
  SHOWN_STATUS_SQL,
  staffOrder,
  type Direction,
  type Position,
  type Segment,
  type StaffOrder,
} from './staff-order'
import {
  COUNT_CAP,
  filteredShare,
  LAST_PAGE_COUNT_CAP,
  staffTotal,
  type StaffTotal,
} from './staff-total'
import { decodeCursor, encodeCursor } from './staff-cursor'
import {
  indexedUpTo,
  nameKeyAt,
  searchTerms,
  type NameBound,
  type SearchTerms,
} from './staff-search'

/** The row's e-mail, for whether its account is locked (isLockedSql). */
const accountEmail = sql.ref<string>('accounts.email')
/**
 * How far a search first reads along the list's own order for the page's matches: a common
 * name ("joão", "silva") fills a page within it, and the page is read in order from the index.
 * A rarer one goes to the search index (staff-search.ts) and sorts its few matches.
 */
export const SEARCH_WINDOW = 2000

/**
 * The accounts, with what the list shows of each: role, team, last sign-in, lock, second factor.
 */
export function staffRows(db: Db) {
  return db
    .selectFrom('accounts')
    .innerJoin('roles', 'roles.id', 'accounts.role_id')
    .leftJoin('teams', 'teams.id', 'accounts.team_id')
    .select([
      'accounts.id',
      'accounts.name',
      'accounts.name_sort_key',
      'accounts.email',
      'accounts.role',
      'accounts.role_id',
      'roles.name as role_name',
      'accounts.team_id',
      'teams.name as team_name',
      'accounts.status',
      'accounts.created_at',
      'accounts.invitation_expires_at',
      'accounts.last_sign_in_at',
      sql<boolean>`${isLockedSql(accountEmail)}`.as('locked'),
      // Kept on the account by triggers (db/list-migrations.ts).
      'accounts.mfa',
    ])
}

type StaffRow = Awaited<ReturnType<ReturnType<typeof staffRows>['executeTakeFirstOrThrow']>>

/** An item of the list; `outranking`: the roles whose holders outrank the viewer (roles/rank.ts). */
export function toStaffItem(row: StaffRow, outranking: ReadonlySet<string>): StaffItem {
  const invitation = row.invitation_expires_at === null ? null : new Date(row.invitation_expires_at)
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    role: row.role,
    roleId: row.role_id,
    roleName: row.role_name,
    teamId: row.team_id,
    teamName: row.team_name,
    status: isOpenInvitation(row) ? 'invited' : row.status,
    invitationExpiresAt: invitation && invitation.toISOString(),
    createdAt: new Date(row.created_at).toISOString(),
    lastSignInAt: row.last_sign_in_at === null ? null : new Date(row.last_sign_in_at).toISOString(),
    // PostgreSQL answers a boolean, SQLite 0 or 1.
    locked: Boolean(row.locked),
    mfa: Boolean(row.mfa),
    outranksYou: outranking.has(row.role_id),
  }
}

/**
 * One account as the list shows it to this viewer, whose reach the caller has checked (its page,
 * or the answer to a change they made).
 */
export async function findStaffItem(
  db: Db,
  id: string,
  viewer: Access,
): Promise<StaffItem | undefined> {
  const row = await staffRows(db).where('accounts.id', '=', id).executeTakeFirst()
  return row && toStaffItem(row, await outrankingRoles(db, [row.role_id], viewer))
}

/**
 * The conditions of a query's filters but the search, on the `accounts` row. The locked accounts
 * are those with a lock's end on the account (kept by triggers, db/list-migrations.ts) still to
 * come: the order's index over them alone answers, and sign_in_limits confirms each lock.
 */
export function filterConditions(
  query: StaffQuery,
  access: Access,
  now = new Date(),
): RawBuilder<boolean>[] {
  const conditions: RawBuilder<boolean>[] = []
  if (access.scope !== 'all') conditions.push(reachableSql(access))
  if (query.status) conditions.push(sql<boolean>`${sql.raw(SHOWN_STATUS_SQL)} = ${query.status}`)
  if (query.role) {
    conditions.push(
      query.role === 'admin'
        ? sql<boolean>`accounts.role = 'admin'`
        : sql<boolean>`accounts.role <> 'admin'`,
    )
  }
  if (query.roleId) conditions.push(sql<boolean>`accounts.role_id = ${query.roleId.toLowerCase()}`)
  if (query.teamId === 'none') conditions.push(sql<boolean>`accounts.team_id is null`)
  else if (query.teamId) {
    conditions.push(sql<boolean>`accounts.team_id = ${query.teamId.toLowerCase()}`)
  }
  if (query.locked === 'true') {
    conditions.push(sql<boolean>`accounts.locked_until > ${now}`)
    conditions.push(sql<boolean>`${isLockedSql(accountEmail, now)}`)
  } else if (query.locked === 'false')
    conditions.push(sql<boolean>`not ${isLockedSql(accountEmail, now)}`)
  if (query.mfa) conditions.push(sql<boolean>`accounts.mfa = ${query.mfa === 'true'}`)
  return conditions
}

const all = (conditions: RawBuilder<boolean>[]) =>
  conditions.length === 0 ? sql<boolean>`1 = 1` : sql<boolean>`${sql.join(conditions, sql` and `)}`

/**
 * A rare search's page (`among`: on PostgreSQL the trigram index's condition, on SQLite the search
 * index's matches up to a name key), as the ids of its first `limit` matches in the segment's
 * order. The matches are a table of their own, found
 * through the index (`offset 0` keeps PostgreSQL from merging it into the query: merged, "joao"
 * by name walked the order's index guessing its matches spread evenly along it, and passed
 * 41,432 accounts before the first João, 162 ms for the request), with only their id and the
 * order's columns: they are sorted by those, and only the page's rows are then read whole and
 * joined. Sorted as whole rows, joined, the 2,090 matches of "joao" at 100k people took 8.3 ms
 * for the query alone, their keys 2.9 ms; listStaff for "joao" by name went from 13.2 to 11.7 ms
 * (3.3 and 3.6 ms at 1k; medians of the two alternated, on the data npm run bench -- --only
 * scale seeds, by hand). SQLite's search in name order reads its matches so too (inNameOrder,
 * from its search index's copy of the name keys), where the difference is within noise.
 */
function pageOfMatches(
  engine: Engine,
  where: RawBuilder<boolean>[],
  segment: Segment,
  direction: Direction,
  limit: number,
): RawBuilder<boolean> {
  const key = (at: number) => sql.ref(`found.k${at}`)
  const keys = segment.columns.map((column, at) => sql`${column.sql} as ${sql.ref(`k${at}`)}`)
  const order = segment.columns.map((_, at) => sql`${key(at)} ${sql.raw(direction)}`)
  // SQLite has no OFFSET without a LIMIT (-1: none).
  const apart = engine === 'sqlite' ? sql`limit -1 offset 0` : sql`offset 0`
  return sql<boolean>`accounts.id in (select found.id
      from (select accounts.id, ${sql.join(keys)} from accounts where ${all(where)} ${apart}) as found
      order by ${sql.join(order)} limit ${limit})`
}

interface Fetched {
  row: StaffRow
  segment: number
}

/**
 * Up to `limit` rows from a position (or an end of the list), forward (in the order) or
 * backward, segment after segment; backward rows come nearest first.
 */
async function readFrom(
  db: Db,
  order: StaffOrder,
  conditions: RawBuilder<boolean>[],
  search: SearchTerms | null,
  from: Position | null,
  forward: boolean,
  limit: number,
  skip = 0,
): Promise<Fetched[]> {
  const found: Fetched[] = []
  let toSkip = skip
  const direction = forward === (order.direction === 'asc') ? 'asc' : 'desc'
  const last = order.segments.length - 1
  const start = from?.segment ?? (forward ? 0 : last)
  const engine = engineOf(db)
  for (let index = start; forward ? index <= last : index >= 0; index += forward ? 1 : -1) {
    const wanted = limit - found.length
    const segmentRows = (
      segment: Segment,
      extra: RawBuilder<boolean>[],
      among: RawBuilder<boolean> | null = null,
    ) => {
      const where = [...conditions, ...extra]
      if (segment.where) where.push(segment.where)
      if (from && index === from.segment) {
        where.push(afterPosition(segment, from, order.direction, forward))
      }
      let rows = staffRows(db).where(
        among
          ? pageOfMatches(engine, [among, ...where], segment, direction, wanted + toSkip)
          : all(where),
      )
      for (const column of segment.columns) rows = rows.orderBy(column.sql, direction)
      return rows.limit(wanted).offset(toSkip)
    }
    const segment = order.segments[index]!
    let rows: StaffRow[]
    if (toSkip > 0) {
      // page=n: the page's first row is found along the order's index alone (its columns, then
      // an offset), and the page read from it as from a cursor. The offset on the page's own
      // query made each skipped row whole, its lock and joins included: page 4,999 of 100k people
      // took 368 ms on SQLite, the event loop held all along, against 18 ms now (timed by hand on
      // the data npm run bench -- --only scale seeds). A search's matches are skipped alike.
      const where = [...conditions, ...(search ? [search.matches] : [])]
      if (segment.where) where.push(segment.where)
      const first = await rowAlong(db, segment, where, direction, toSkip)
      if (!first) {
        // The page starts in a later segment: this one's rows are counted out of what is left
        // to skip (the count capped at it).
        const { count } = await db
          .selectFrom(
            db
              .selectFrom('accounts')
              .select(sql`1`.as('one'))
              .where(all(where))
              .limit(toSkip)
              .as('skipped'),
          )
          .select((eb) => eb.fn.countAll<number | string>().as('count'))
          .executeTakeFirstOrThrow()
        toSkip -= Number(count)
        continue
      }
      toSkip = 0
      const atFirst = afterPosition(
        segment,
        positionOf(order, index, first),
        order.direction,
        forward,
        true,
      )
      rows = await segmentRows(segment, [...(search ? [search.matches] : []), atFirst]).execute()
    } else if (!search) {
      rows = await segmentRows(segment, []).execute()
    } else {
      // First along the order itself, within a window: a common name fills the page there.
      const window = (startKey: string | null = null) =>
        windowPage(db, order, segment, index, conditions, search, from, forward, wanted, startKey)
      rows = await window()
      if (rows.length < wanted) {
        // A rarer one: its few matches from the search index, looked up and sorted.
        if (!search.indexed) rows = await segmentRows(segment, [search.matches]).execute()
        else if (engine === 'postgres') {
          rows = await segmentRows(segment, [], search.indexed).execute()
        } else if (search.ftsQuery && segment.columns[0]?.field === 'name_sort_key') {
          const { ftsQuery } = search
          rows = await inNameOrder(
            db,
            ftsQuery,
            direction,
            from && index === from.segment ? from : null,
            wanted,
            (bound) => segmentRows(segment, [], indexedUpTo(ftsQuery, bound)).execute(),
            window,
          )
        } else rows = await segmentRows(byLookup(segment, engine), [search.indexed]).execute()
      }
    }
    found.push(...rows.map((row) => ({ row, segment: index })))
    if (found.length >= limit) break
  }
  return found
}

/**
 * The order's columns of the row `skip` rows along a segment (in `direction`), or undefined when
 * it has no such row: only the columns its index holds, so the walk reads the index alone
 * (PostgreSQL too), never the rows it passes. A window's far end (windowPage), a numbered page's
 * first row (readFrom).
 */
function rowAlong(
  db: Db,
  segment: Segment,
  where: RawBuilder<boolean>[],
  direction: Direction,
  skip: number,
) {
  let along = db
    .selectFrom('accounts')
    .select(segment.columns.map((column) => column.sql.as(column.field)))
    .where(all(where))
  for (const column of segment.columns) along = along.orderBy(column.sql, direction)
  return along.limit(1).offset(skip).executeTakeFirst()
}

/** How deep into a search's matches in name order a page is first looked for (× the page). */
const NAME_DEPTHS = [3, 30]

/**
 * SQLite: a search's page in name order (by name, or the default order's segments), from the
 * matches the search index finds. Looking every match up in `accounts` to sort it cost 2,090
 * look-ups for "joao" at 100k people (25 ms; 3 ms at 1k). The index's own copy of the name keys
 * sorts the matches first.
 *
 * A first name's matches sit together in name order, since the name key begins with it: all of
 * "maria" under m, out of reach of the window read from the segment's start. So the window is read
 * again from the first match's key (`fromKey`), where it holds them. Then, for matches spread
 * out, only those up to the key a few pages deep (NAME_DEPTHS), with that key's namesakes, are
 * looked up. Filters (a status, a team) may leave fewer than a page among them: then deeper,
 * then every match. "maria" at 100k people (2,149 matches, 81 of them awaiting approval) went
 * through every depth to every match in the pending accounts' segment: 15 ms for that last read
 * alone, 48.7 ms the request against 14.8 now (by hand on the data npm run bench -- --only scale
 * seeds).
 */
async function inNameOrder(
  db: Db,
  ftsQuery: string,
  direction: Direction,
  from: Position | null,
  wanted: number,
  read: (bound: NameBound | null) => Promise<StaffRow[]>,
  fromKey: (key: string) => Promise<StaffRow[]>,
): Promise<StaffRow[]> {
  const after = from?.values[0] ?? null
  const first = await nameKeyAt(db, ftsQuery, 1, direction, after)
  // No match from here on: nothing to read.
  if (first === undefined) return []
  const together = await fromKey(first)
  if (together.length >= wanted) return together
  for (const depth of NAME_DEPTHS) {
    const key = await nameKeyAt(db, ftsQuery, depth * wanted, direction, after)
    // Fewer matches than that in all: each is read.
    if (key === undefined) return read(null)
    const rows = await read({ key, direction })
    if (rows.length >= wanted) return rows
  }
  return read(null)
}

/**
 * A search's page from the next SEARCH_WINDOW accounts of a segment in its order (from a name key
 * on, `startKey`, in a name order). The window's far end is found first, from the order's index
 * alone (the SEARCH_WINDOW-th account from here); the page is then read along the same index up
 * to that end, and stops at its last match. So a search that matches everyone reads a page, and
 * one that matches few reads the window at most.
 * Filtering a window read whole instead (a subquery with its own limit) made SQLite read and sort
 * all of it first: 13.6 ms at 100k people against 0.3 ms at 1k (that query timed alone on the data
 * npm run bench -- --only scale seeds; the bench's "empresa" route went from 5.9× to 1.4× its time
 * at 1k).
 */
async function windowPage(
  db: Db,
  order: StaffOrder,
  segment: Segment,
  index: number,
  conditions: RawBuilder<boolean>[],
  search: SearchTerms,
  from: Position | null,
  forward: boolean,
  wanted: number,
  startKey: string | null,
): Promise<StaffRow[]> {
  const direction = forward === (order.direction === 'asc') ? 'asc' : 'desc'
  const where = [...conditions]
  if (segment.where) where.push(segment.where)
  if (from && index === from.segment)
    where.push(afterPosition(segment, from, order.direction, forward))
  if (startKey !== null) {
    const key = segment.columns[0]!.sql
    where.push(
      direction === 'asc'
        ? sql<boolean>`${key} >= ${startKey}`
        : sql<boolean>`${key} <= ${startKey}`,
    )
  }
  const last = await rowAlong(db, segment, where, direction, SEARCH_WINDOW - 1)
  // Shorter than the window from here: the rest of the segment is the window.
  if (last) {
    const atEnd = positionOf(order, index, last)
    where.push(afterPosition(segment, atEnd, order.direction, !forward, true))
  }
  let rows = staffRows(db).where(all([...where, search.matches]))
  for (const column of segment.columns) rows = rows.orderBy(column.sql, direction)
  return rows.limit(wanted).execute()
}

/** The share of the accounts the filters must keep for a sort's own index to be walked. */
const WALK_SHARE = 1 / 20

/**
 * SQLite, a sort other than the default with filters: with no statistics, SQLite's planner takes
 * the filter's index and sorts every account it selects ("Ativos" by creation read and sorted
 * 85,000 accounts: 310 ms at 100k people in npm run bench -- --only scale). Where the filters and
 * the viewer's reach keep at least one account in 20 (WALK_SHARE) of the whole table, the sort's
 * own index is walked instead and the filters checked on the way: a page costs about 20 pages of
 * rows when those accounts are spread along the sort, more where they cluster (the newest of a
 * status, by creation), the whole index at worst. Rarer, the filter's index selects few enough to
 * sort. The share comes from the tallies (staff-total.ts); SQLite's unary `+` makes a condition one
 * no index answers. The default order, and the status by name, have an index of their own; a search
 * or the lock filter is read its own way; PostgreSQL weighs this itself.
 */
async function alongTheOrder(
  db: Db,
  query: StaffQuery,
  access: Access,
  conditions: RawBuilder<boolean>[],
): Promise<RawBuilder<boolean>[]> {
  if (engineOf(db) !== 'sqlite' || !query.sort || query.q || query.locked) return conditions
  const others = query.role || query.roleId || query.teamId || query.mfa
  const byName = query.sort === 'name' || query.sort === '-name'
  if (!others && (!query.status || byName)) return conditions
  if ((await filteredShare(db, query, access)) < WALK_SHARE) return conditions
  return conditions.map((condition) => sql<boolean>`+(${condition})`)
}

const badCursor = () => new HttpError(400, 'invalid_input', 'Posição da lista inválida.')
const tooManyToNumber = () =>
  new HttpError(
    400,
    'invalid_input',
    // Thousands with a dot, without Intl (whose ICU data would stay in memory for one message).
    `Mais de ${String(LAST_PAGE_COUNT_CAP).replace(/\B(?=(\d{3})+$)/g, '.')} contas nesta lista: ` +
      'a última página não tem número. Para ver as últimas, inverta a ordem.',
  )

/**
 * One page of the Equipe list: searched, filtered and sorted in the database, read from a cursor
 * (`after`: the next page; `before`: the previous one), from the end (`page=last`), or, for
 * older callers, by its number (`page=n`: read from the start, so a deep page costs its depth).
 * `next` and `previous` are the cursors of the pages beside it; each carries its page's number.
 */
export async function listStaff(db: Db, query: StaffQuery, access: Access): Promise<StaffList> {
  if ([query.after, query.before, query.page].filter((value) => value !== undefined).length > 1) {
    throw new HttpError(400, 'invalid_input', 'Use só um de after, before e page.')
  }
  const pageSize = Number(query.pageSize ?? STAFF_PAGE_SIZE)
  const engine = engineOf(db)
  const order = staffOrder(query, engine)
  const conditions = await alongTheOrder(db, query, access, filterConditions(query, access))
  const search = searchTerms(query.q, engine)
  const read = (from: Position | null, forward: boolean, limit: number, skip = 0) =>
    readFrom(db, order, conditions, search, from, forward, limit, skip)

  let items: Fetched[]
  let page: number
  let hasNext: boolean
  let hasPrevious: boolean
  let total: StaffTotal
  const cursor = query.after ?? query.before
  if (cursor !== undefined) {
    const decoded = decodeCursor(cursor, order)
    if (!decoded) throw badCursor()
    if (query.after !== undefined) {
      const rows = await read(decoded.position, true, pageSize + 1)
      items = rows.slice(0, pageSize)
      hasNext = rows.length > pageSize
      hasPrevious = true
      page = decoded.page
    } else {
      const rows = await read(decoded.position, false, pageSize + 1)
      // Fewer than a page before it (people were removed meanwhile): the first page, whole.
      if (rows.length < pageSize) return listStaff(db, { ...query, before: undefined }, access)
      items = rows.slice(0, pageSize).reverse()
      hasPrevious = rows.length > pageSize
      hasNext = true
      page = hasPrevious ? Math.max(2, decoded.page) : 1
    }
    total = await staffTotal(db, query, access, conditions, search, COUNT_CAP)
  } else if (query.page === 'last') {
    // Its number needs the exact total, even where counting costs more than a page; up to a
    // point (LAST_PAGE_COUNT_CAP), past which the same people are the first page of the reverse
    // order. The screen offers "Última" only for an exact count (docs/administration.md).
    total = await staffTotal(db, query, access, conditions, search, LAST_PAGE_COUNT_CAP)
    if (!total.exact) throw tooManyToNumber()
    const rows = await read(null, false, pageSize + 1)
    items = rows.slice(0, pageSize).reverse()
    hasPrevious = rows.length > pageSize
    hasNext = false
    page = Math.max(1, Math.ceil(total.count / pageSize))
  } else {
    page = Number(query.page ?? 1)
    const rows = await read(null, true, pageSize + 1, (page - 1) * pageSize)
    items = rows.slice(0, pageSize)
    hasNext = rows.length > pageSize
    hasPrevious = page > 1 && items.length > 0
    total = await staffTotal(db, query, access, conditions, search, COUNT_CAP)
  }
  const cursorAt = (item: Fetched | undefined, number: number) =>
    item ? encodeCursor(order.sort, positionOf(order, item.segment, item.row), number) : null
  // The page's roles in one read, not one per person.
  const outranking = await outrankingRoles(
    db,
    items.map(({ row }) => row.role_id),
    access,
  )
  return {
    items: items.map(({ row }) => toStaffItem(row, outranking)),
    total: total.count,
    totalExact: total.exact,
    page,
    pageSize,
    next: hasNext ? cursorAt(items.at(-1), page + 1) : null,
    previous: hasPrevious ? cursorAt(items[0], Math.max(1, page - 1)) : null,
  }
}
