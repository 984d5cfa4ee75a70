import { badRequest } from './scim-error'

/**
 * A list answer (RFC 7644 §3.4.2: ListResponse) and its paging parameters (§3.4.2.4), 1-based.
 *
 * - startIndex: absent is 1, below 1 is 1 (the RFC's words).
 * - count: absent is DEFAULT_PAGE_SIZE, negative is 0 (the RFC's), above MAX_PAGE_SIZE is
 *   MAX_PAGE_SIZE (ServiceProviderConfig's filter.maxResults says so). count=0 answers the total
 *   alone, as the RFC intends.
 * - Either one that is not a whole number is `invalidValue`: the RFC says nothing, and guessing
 *   a page for "ten" would be worse.
 * `Resources` is always there, empty on an empty page (Okta reads it unconditionally).
 */

export const LIST_RESPONSE_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse'
export const DEFAULT_PAGE_SIZE = 100
export const MAX_PAGE_SIZE = 200

export interface Page {
  startIndex: number
  count: number
  /** startIndex - 1: the rows to skip. */
  offset: number
}

function wholeNumber(raw: unknown, name: string): number | undefined {
  if (raw === undefined || raw === '') return undefined
  const text = typeof raw === 'number' ? String(raw) : raw
  if (typeof text !== 'string' || !/^[-+]?\d{1,15}$/.test(text.trim()))
    throw badRequest('invalidValue', `${name} must be a whole number, not ${JSON.stringify(raw)}.`)
  return Number(text)
}

export function pageOf(query: { startIndex?: unknown; count?: unknown }): Page {
  const startIndex = Math.max(1, wholeNumber(query.startIndex, 'startIndex') ?? 1)
  const count = Math.min(
    MAX_PAGE_SIZE,
    Math.max(0, wholeNumber(query.count, 'count') ?? DEFAULT_PAGE_SIZE),
  )
  return { startIndex, count, offset: startIndex - 1 }
}

export interface ListResponse<T> {
  schemas: [typeof LIST_RESPONSE_SCHEMA]
  totalResults: number
  startIndex: number
  itemsPerPage: number
  Resources: T[]
}

export function listResponse<T>(
  resources: T[],
  totalResults: number,
  startIndex: number,
): ListResponse<T> {
  return {
    schemas: [LIST_RESPONSE_SCHEMA],
    totalResults,
    startIndex,
    itemsPerPage: resources.length,
    Resources: resources,
  }
}
