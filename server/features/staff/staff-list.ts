import { sql, type RawBuilder } from 'kysely'
import {
  STAFF_PAGE_SIZE,
  type StaffItem,
  type StaffList,
  type StaffQuery,
} from '../../../common/api/staff'
import type { Db } from '../../db/database'
import { engineOf } from '../../db/portable-sql'
import { isOpenInvitation } from '../../accounts/accounts'
import type { Access } from '../../../common/api/roles'
import { outrankingRoles } from '../../roles/rank'
import { reachableSql } from '../../roles/team-scope'
import { HttpError } from '../../http/errors'
import { lockedAccountsSql, lockedExpression } from './lock-state'
import {
  afterPosition,
  positionOf,
  SHOWN_STATUS_SQL,
  staffOrder,
  type Position,
  type StaffOrder,
} from './staff-order'
import { staffTotal, type StaffTotal } from './staff-total'
import { decodeCursor, encodeCursor } from './staff-cursor'
import { searchTerms, type SearchTerms } from './staff-search'

/** Whether the account has a second factor: a confirmed authenticator app or a passkey. */
const hasMfa = sql<boolean>`(exists (select 1 from totp_factors where totp_factors.account_id = accounts.id and totp_factors.confirmed_at is not null) or exists (select 1 from passkeys where passkeys.account_id = accounts.id))`

/**
 * How far a search first reads along the list's own order for the page's matches: a common
 * name ("joão", "silva") fills a page within it, and the page is read in order from the index.
 * A rarer one goes to the search index (staff-search.ts) and sorts its few matches.
 */
const SEARCH_WINDOW = 1000

/** The accounts, with what the list shows of each: role, team, last sign-in, lock, second factor. */
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
      sql<boolean>`${lockedExpression()}`.as('locked'),
      hasMfa.as('mfa'),
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

/** The conditions of a query's filters but the search, on the `accounts` row. */
export function filterConditions(query: StaffQuery, access: Access): RawBuilder<boolean>[] {
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
  if (query.locked === 'true') conditions.push(lockedAccountsSql())
  else if (query.locked === 'false') conditions.push(sql<boolean>`not ${lockedExpression()}`)
  if (query.mfa) conditions.push(query.mfa === 'true' ? hasMfa : sql<boolean>`not ${hasMfa}`)
  return conditions
}

const all = (conditions: RawBuilder<boolean>[]) =>
  conditions.length === 0 ? sql<boolean>`1 = 1` : sql<boolean>`${sql.join(conditions, sql` and `)}`

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
  for (let index = start; forward ? index <= last : index >= 0; index += forward ? 1 : -1) {
    const segment = order.segments[index]!
    const where = [...conditions]
    if (segment.where) where.push(segment.where)
    if (from && index === from.segment)
      where.push(afterPosition(segment, from, order.direction, forward))
    const wanted = limit - found.length
    const page = (source: ReturnType<typeof staffRows>) => {
      let ordered = source
      for (const column of segment.columns) ordered = ordered.orderBy(column.sql, direction)
      return ordered.limit(wanted).offset(toSkip).execute()
    }
    let rows: StaffRow[]
    if (toSkip > 0) {
      // page=n: whole segments are skipped by a count (capped at what is left to skip), then
      // the rest by an offset, in the database.
      const filtered = all(search ? [...where, search.matches] : where)
      const { count } = await db
        .selectFrom(
          db
            .selectFrom('accounts')
            .select(sql`1`.as('one'))
            .where(filtered)
            .limit(toSkip)
            .as('skipped'),
        )
        .select((eb) => eb.fn.countAll<number | string>().as('count'))
        .executeTakeFirstOrThrow()
      if (Number(count) < toSkip) {
        toSkip -= Number(count)
        continue
      }
      rows = await page(staffRows(db).where(filtered))
      toSkip = 0
    } else if (!search) {
      rows = await page(staffRows(db).where(all(where)))
    } else {
      // First along the order itself, within a window; the search index for a rare term.
      rows = await page(
        staffRowsOf(db, windowed(db, segment, where, direction)).where(search.matches),
      )
      if (rows.length < wanted) {
        rows = await page(staffRows(db).where(all([...where, search.indexed ?? search.matches])))
      }
    }
    found.push(...rows.map((row) => ({ row, segment: index })))
    if (found.length >= limit) break
  }
  return found
}

/** The next SEARCH_WINDOW accounts of a segment, in its order: the rows a search first reads. */
function windowed(
  db: Db,
  segment: StaffOrder['segments'][number],
  where: RawBuilder<boolean>[],
  direction: 'asc' | 'desc',
) {
  let rows = db.selectFrom('accounts').selectAll('accounts').where(all(where))
  for (const column of segment.columns) rows = rows.orderBy(column.sql, direction)
  return rows.limit(SEARCH_WINDOW).as('accounts')
}

/** staffRows over another source named `accounts` (a window of the table). */
function staffRowsOf(db: Db, source: ReturnType<typeof windowed>) {
  return db
    .selectFrom(source)
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
      sql<boolean>`${lockedExpression()}`.as('locked'),
      hasMfa.as('mfa'),
    ]) as unknown as ReturnType<typeof staffRows>
}

const badCursor = () => new HttpError(400, 'invalid_input', 'Posição da lista inválida.')

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
  const conditions = filterConditions(query, access)
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
    total = await staffTotal(db, query, access, conditions, search, false)
  } else if (query.page === 'last') {
    // Its number needs the exact total, even where counting costs more than a page.
    total = await staffTotal(db, query, access, conditions, search, true)
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
    total = await staffTotal(db, query, access, conditions, search, false)
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
