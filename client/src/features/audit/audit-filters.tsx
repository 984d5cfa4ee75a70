import { CButton, CFormInput, CFormLabel } from '@coreui/react'
import { useId, type CSSProperties, type ReactNode } from 'react'
import { AUDIT_TYPES, type AuditQuery } from '../../../../common/api/audit'
import { auditTypeNames } from '../../../../common/audit-type-names'
import { namesInOrder } from '../../../../common/name-order'
import { listStaff } from '../../api/staff-list-api'
import { useLoad } from '../../api/use-load'
import { FoldedFilters } from '../../ui/folded-filters'
import { auditMessages } from './audit-messages'

const text = auditMessages
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

/** What the API takes: the days become instants, `to` inclusive. */
export const apiQuery = (filters: Filters): AuditQuery => ({
  ...(filters.type && { type: filters.type }),
  ...(filters.account && { account: filters.account }),
  ...(filters.actor && { actor: filters.actor }),
  ...(filters.from && { from: startOfDay(filters.from) }),
  ...(filters.to && { to: startOfDay(filters.to, 1) }),
})

/**
 * The people the two person filters offer (the first 100 by name), in the browser's pt-BR order
 * (common/name-order.ts): the server's order agrees, except where names differ only in case.
 */
const fetchPeople = (signal: AbortSignal) =>
  listStaff({ sort: 'name', pageSize: '100' }, signal).then((list) =>
    [...list.items].sort((a, b) => namesInOrder.compare(a.name, b.name)),
  )

/**
 * Auditoria's filters (folded behind "Filtros" on a phone): applying them, or clearing them,
 * gives the URL's new query.
 */
export function AuditFilters({
  filters,
  anySet,
  apply,
}: {
  filters: Filters
  /** Whether the URL holds any filter, so that "clear" is offered. */
  anySet: boolean
  apply: (next: URLSearchParams) => void
}) {
  const id = useId()
  const key = JSON.stringify(filters)
  const peopleLoad = useLoad(fetchPeople).load
  // Failing, the filter offers only "anyone"; the log itself still loads.
  const people = peopleLoad.state === 'ready' ? peopleLoad.data : []

  const personOptions = (selected: string | undefined) => (
    <>
      <option value="">{text.anyone}</option>
      {selected && !people.some((person) => person.id === selected) && (
        <option value={selected}>{text.unknownAccount}</option>
      )}
      {people.map((person) => (
        <option key={person.id} value={person.id}>
          {person.name} ({person.email})
        </option>
      ))}
    </>
  )

  /** A filter with its label above it, as an item of the form's row; the control gets its id. */
  const labelled = (
    name: keyof Filters,
    label: string,
    style: CSSProperties,
    control: (fieldId: string) => ReactNode,
  ) => (
    <div style={style}>
      <CFormLabel htmlFor={`${id}-${name}`} className="small mb-1">
        {label}
      </CFormLabel>
      {control(`${id}-${name}`)}
    </div>
  )

  // The fields show the URL's filters as their defaults, so they are made again when those change
  // (the form itself stays, and the filters a phone has unfolded stay unfolded). The two person
  // filters are also made again once the people arrive, for a chosen person's option to show;
  // the other fields are not, or a type or day picked meanwhile would be lost.
  const select = (
    name: keyof Filters,
    label: string,
    options: ReactNode,
    remakeKey: string = key,
  ) =>
    labelled(name, label, { flex: '1 1 12rem', minWidth: 0 }, (fieldId) => (
      <select
        key={remakeKey}
        id={fieldId}
        name={name}
        className="form-select"
        defaultValue={filters[name] ?? ''}
      >
        {options}
      </select>
    ))

  const day = (name: 'from' | 'to', label: string) =>
    labelled(name, label, { flex: '1 1 9rem' }, (fieldId) => (
      <CFormInput
        key={key}
        id={fieldId}
        name={name}
        type="date"
        defaultValue={filters[name] ?? ''}
      />
    ))

  return (
    <form
      role="search"
      className="d-flex flex-wrap align-items-end gap-2 mb-3"
      onSubmit={(event) => {
        event.preventDefault()
        const data = new FormData(event.currentTarget)
        const next = new URLSearchParams()
        for (const name of ['type', 'account', 'actor', 'from', 'to']) {
          const value = data.get(name)
          if (typeof value === 'string' && value) next.set(name, value)
        }
        apply(next)
      }}
    >
      <FoldedFilters active={Object.values(filters).filter(Boolean).length}>
        {select(
          'type',
          text.type,
          <>
            <option value="">{text.anyType}</option>
            {AUDIT_TYPES.map((type) => (
              <option key={type} value={type}>
                {auditTypeNames[type]}
              </option>
            ))}
          </>,
        )}
        {select('account', text.person, personOptions(filters.account), key + people.length)}
        {select('actor', text.actor, personOptions(filters.actor), key + people.length)}
        {day('from', text.from)}
        {day('to', text.to)}
      </FoldedFilters>
      <CButton type="submit" color="primary" variant="outline">
        {text.apply}
      </CButton>
      {anySet && (
        <CButton type="button" color="link" onClick={() => apply(new URLSearchParams())}>
          {text.clear}
        </CButton>
      )}
    </form>
  )
}
