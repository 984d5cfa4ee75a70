import { sql, type RawBuilder } from 'kysely'
import type { StaffQuery, StaffSort } from '../../../common/api/staff'
import type { Engine } from '../../db/portable-sql'

/**
 * Equipe's orders, as keyset pages: each order is one or more segments read one after the
 * other, and within a segment the rows follow an index (db/list-migrations.ts, 0202) from the
 * cursor on, so a page costs a page whatever the size of the list or how deep the page is.
 *
 * A segment is a part of the list an equality on an indexed expression selects (pending
 * registrations, then everyone else; those who signed in, then those who never did), ordered by
 * columns that end with the id: a total order, so that a page boundary never repeats nor skips
 * anyone, even among people of the same name. The cursor is the segment and the values of those
 * columns on the last (or first) row shown: the next page starts strictly after it, by a row
 * comparison `(a, b, id) > (x, y, z)`, which both engines read as a bound of the index rather
 * than a filter. A person removed or renamed between two pages moves nobody else: the next page
 * starts after the position the cursor names, wherever that person went.
 *
 * The expressions are written here exactly as the indexes were built on them: both engines use an
 * index on an expression only for the same expression (db/list-plans.test.ts checks the plans).
 */

/** Pending registrations first (they wait for someone); the default order's first segment. */
export const RANK_SQL = `(case when accounts.status = 'pending' then 0 else 1 end)`
/** The status Equipe shows: an open invitation (accounts/accounts.ts) is `invited`. */
export const SHOWN_STATUS_SQL = `(case when accounts.status = 'active' and accounts.invitation_expires_at is not null then 'invited' else accounts.status end)`

export type Direction = 'asc' | 'desc'

/** A column of an order: the SQL it is ordered by, and the row's field its value is read off. */
export interface OrderColumn {
  sql: RawBuilder<unknown>
  field: keyof OrderedRow
  /** What its values are, for checking a cursor's (staff-cursor.ts); a time is read as ISO text. */
  kind: 'text' | 'time' | 'id'
}

export interface Segment {
  /** Which rows the segment holds; null: all of them (the order has one segment). */
  where: RawBuilder<boolean> | null
  columns: OrderColumn[]
}

/**
 * The same segment for a page read from a few candidates found otherwise (the locked accounts,
 * the search index's matches): its condition and order as plain expressions no index answers,
 * so that SQLite looks the candidates up and sorts them rather than walk the order's index to
 * its end in search of them (it prefers an index in the order's own order, having no figures on
 * how few the candidates are). SQLite's unary `+` is the documented way; PostgreSQL weighs the
 * candidates itself, and keeps the plain forms.
 */
export function byLookup(segment: Segment, engine: Engine): Segment {
  if (engine === 'postgres') return segment
  return {
    where: segment.where && sql<boolean>`+(${segment.where})`,
    columns: segment.columns.map((column) => ({ ...column, sql: sql`+${column.sql}` })),
  }
}

export interface StaffOrder {
  sort: StaffSort | 'default'
  direction: Direction
  segments: Segment[]
}

/** What a row must carry for its position to be read off it. */
export interface OrderedRow {
  id: string
  name: string
  name_sort_key: string
  created_at: Date | string
  last_sign_in_at: Date | string | null
}

const iso = (value: Date | string | null) => (value === null ? '' : new Date(value).toISOString())

const byId: OrderColumn = { sql: sql.raw('accounts.id'), field: 'id', kind: 'id' }

function byName(engine: Engine): OrderColumn[] {
  // Byte order on both engines (db/portable-sql.ts, "text in byte order").
  const bytewise = (column: string) =>
    engine === 'postgres'
      ? sql.raw(`accounts.${column} collate "C"`)
      : sql.raw(`accounts.${column}`)
  return [
    { sql: bytewise('name_sort_key'), field: 'name_sort_key', kind: 'text' },
    { sql: bytewise('name'), field: 'name', kind: 'text' },
    byId,
  ]
}

/**
 * The order of a query: its sort, and the segments it is read in. With a status filter the
 * default order's pending-first segments are one: the status decides which it would be.
 */
export function staffOrder(query: Pick<StaffQuery, 'sort' | 'status'>, engine: Engine): StaffOrder {
  const sort = query.sort ?? 'default'
  const direction: Direction = sort.startsWith('-') ? 'desc' : 'asc'
  const key = sort.replace('-', '')
  if (key === 'default') {
    if (query.status)
      return { sort, direction, segments: [{ where: null, columns: byName(engine) }] }
    return {
      sort,
      direction,
      segments: [0, 1].map((rank) => ({
        where: sql<boolean>`${sql.raw(RANK_SQL)} = ${sql.lit(rank)}`,
        columns: byName(engine),
      })),
    }
  }
  if (key === 'name')
    return { sort, direction, segments: [{ where: null, columns: byName(engine) }] }
  if (key === 'createdAt') {
    return {
      sort,
      direction,
      segments: [
        {
          where: null,
          columns: [
            {
              sql: sql.raw('accounts.created_at'),
              field: 'created_at',
              kind: 'time',
            },
            byId,
          ],
        },
      ],
    }
  }
  // Last sign-in: people who never signed in come last, either way.
  return {
    sort,
    direction,
    segments: [
      {
        where: sql<boolean>`accounts.last_sign_in_at is not null`,
        columns: [
          {
            sql: sql.raw('accounts.last_sign_in_at'),
            field: 'last_sign_in_at',
            kind: 'time',
          },
          byId,
        ],
      },
      { where: sql<boolean>`accounts.last_sign_in_at is null`, columns: [byId] },
    ],
  }
}

/** A position in an order: the segment, and the values of its columns on one row. */
export interface Position {
  segment: number
  values: string[]
}

/** The position of a row, which needs only the fields of its segment's columns. */
export function positionOf(
  order: StaffOrder,
  segment: number,
  row: Partial<Record<keyof OrderedRow, unknown>>,
): Position {
  const values = order.segments[segment]!.columns.map((column) => {
    const value = row[column.field] as Date | string | null
    return column.kind === 'time' ? iso(value) : String(value)
  })
  return { segment, values }
}

/**
 * `(a, b, id) > (x, y, z)`: the rows after the position (before it, `forward` false); with
 * `orAt`, the position's own row too.
 */
export function afterPosition(
  segment: Segment,
  position: Position,
  direction: Direction,
  forward: boolean,
  orAt = false,
): RawBuilder<boolean> {
  const later = (direction === 'asc') === forward
  const columns = sql.join(segment.columns.map((column) => column.sql))
  const values = sql.join(position.values)
  const operator = sql.raw((later ? '>' : '<') + (orAt ? '=' : ''))
  return sql<boolean>`(${columns}) ${operator} (${values})`
}
