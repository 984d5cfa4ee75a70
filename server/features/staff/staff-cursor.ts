import { normalizeAccountId } from '../../../common/account-id'
import type { Position, StaffOrder } from './staff-order'

/**
 * Equipe's cursors: opaque to the client, a position in one order (staff-order.ts) and the number
 * of the page they lead to (a label: the list may have changed since). base64url of JSON
 * `[sort, segment, values, page]`. A cursor of another order, or one whose values are not what
 * that order's columns hold, is refused (400): its values become query parameters, and a
 * malformed time would be the database's error rather than the caller's.
 */
export function encodeCursor(sort: string, position: Position, page: number): string {
  return Buffer.from(JSON.stringify([sort, position.segment, position.values, page])).toString(
    'base64url',
  )
}

const MAX_VALUE_LENGTH = 400

export function decodeCursor(
  cursor: string,
  order: StaffOrder,
): { position: Position; page: number } | null {
  let parsed: unknown
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
  } catch {
    return null
  }
  if (!Array.isArray(parsed) || parsed.length !== 4) return null
  const [sort, segment, values, page] = parsed as unknown[]
  if (sort !== order.sort || !Number.isInteger(segment) || !Number.isInteger(page)) return null
  const columns = order.segments[segment as number]?.columns
  if (!columns || (page as number) < 1 || !Array.isArray(values)) return null
  if (values.length !== columns.length) return null
  const checked: string[] = []
  for (const [index, value] of (values as unknown[]).entries()) {
    if (typeof value !== 'string' || value.length > MAX_VALUE_LENGTH) return null
    const kind = columns[index]!.kind
    if (kind === 'id') {
      const id = normalizeAccountId(value)
      if (id === null) return null
      checked.push(id)
    } else if (kind === 'time') {
      const time = Date.parse(value)
      if (Number.isNaN(time)) return null
      checked.push(new Date(time).toISOString())
    } else checked.push(value)
  }
  return { position: { segment: segment as number, values: checked }, page: page as number }
}
