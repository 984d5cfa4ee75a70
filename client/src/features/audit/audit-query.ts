import { AUDIT_TYPES, type AuditQuery } from '../../../../common/api/audit'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const DAY = /^\d{4}-\d{2}-\d{2}$/

/** A day picked in the browser's time zone, as the UTC instant it starts at. */
const startOfDay = (day: string, plusDays = 0) => {
  const date = new Date(`${day}T00:00:00`)
  date.setDate(date.getDate() + plusDays)
  return date.toISOString()
}

/** The filters in the URL (`#/auditoria?type=approved&account=…&from=2026-11-01`). */
export function filtersFrom(params: URLSearchParams) {
  const type = params.get('type')
  const valid = (name: string, pattern: RegExp) => {
    const value = params.get(name)
    return value && pattern.test(value) ? value : undefined
  }
  return {
    type: AUDIT_TYPES.find((known) => known === type),
    account: valid('account', UUID),
    actor: valid('actor', UUID),
    from: valid('from', DAY),
    to: valid('to', DAY),
  }
}
export type Filters = ReturnType<typeof filtersFrom>

/**
 * Whether "Até" comes before "De": such a range can hold no event, so the screen says so on the
 * field and asks nothing of the API rather than showing an empty log as if nothing had happened.
 * (Days as YYYY-MM-DD compare as text.)
 */
export const rangeInverted = (filters: Pick<Filters, 'from' | 'to'>): boolean =>
  filters.from !== undefined && filters.to !== undefined && filters.to < filters.from

/** What the API takes: the days become instants, `to` inclusive. */
export const apiQuery = (filters: Filters): AuditQuery => ({
  ...(filters.type && { type: filters.type }),
  ...(filters.account && { account: filters.account }),
  ...(filters.actor && { actor: filters.actor }),
  ...(filters.from && { from: startOfDay(filters.from) }),
  ...(filters.to && { to: startOfDay(filters.to, 1) }),
})
