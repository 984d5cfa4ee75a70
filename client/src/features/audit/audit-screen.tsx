import { CButton, CFormInput, CFormLabel, CSpinner } from '@coreui/react'
import { useEffect, useId, useState, type CSSProperties, type ReactNode } from 'react'
import { useSearchParams } from 'react-router-dom'
import { AUDIT_TYPES, type AuditEvent, type AuditQuery } from '../../../../common/api/audit'
import type { StaffItem } from '../../../../common/api/staff'
import { auditTypeNames } from '../../../../common/audit-type-names'
import { adminMessages } from '../../words/admin-messages'
import { auditMessages } from './audit-messages'
import { listStaff } from '../../api/staff-list-api'
import { listAudit } from '../../audit-log/audit-log-api'
import { downloadAuditCsv } from './audit-api'
import { errorMessage } from '../../api/api-client'
import { Notice } from '../../ui/notice'
import { AuditEventList } from '../../audit-log/audit-event-list'
import { FoldedFilters } from '../../ui/folded-filters'

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
function filtersFrom(params: URLSearchParams) {
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
type Filters = ReturnType<typeof filtersFrom>

/** What the API takes: the days become instants, `to` inclusive. */
const apiQuery = (filters: Filters): AuditQuery => ({
  ...(filters.type && { type: filters.type }),
  ...(filters.account && { account: filters.account }),
  ...(filters.actor && { actor: filters.actor }),
  ...(filters.from && { from: startOfDay(filters.from) }),
  ...(filters.to && { to: startOfDay(filters.to, 1) }),
})

type Load =
  | { state: 'loading' }
  | { state: 'failed'; message: string }
  | { state: 'ready'; events: AuditEvent[]; next: string | null; more: 'idle' | 'loading' }

/** Auditoria (admins): the log, filtered, newest first, a page at a time; CSV of the same. */
export default function AuditScreen() {
  const [params, setParams] = useSearchParams()
  const filters = filtersFrom(params)
  const key = JSON.stringify(filters)
  const [load, setLoad] = useState<Load>({ state: 'loading' })
  const [people, setPeople] = useState<StaffItem[]>([])
  const [exporting, setExporting] = useState(false)
  const [exportError, setExportError] = useState<string | null>(null)
  const id = useId()

  useEffect(() => {
    const controller = new AbortController()
    listStaff({ sort: 'name', pageSize: '100' }, controller.signal).then(
      (list) => setPeople(list.items),
      // The filter then offers only "anyone"; the log itself still loads.
      () => undefined,
    )
    return () => controller.abort()
  }, [])

  useEffect(() => {
    const controller = new AbortController()
    setLoad({ state: 'loading' })
    listAudit(apiQuery(JSON.parse(key) as Filters), controller.signal).then(
      (page) => setLoad({ state: 'ready', events: page.events, next: page.next, more: 'idle' }),
      (error: unknown) => {
        if (!controller.signal.aborted) setLoad({ state: 'failed', message: errorMessage(error) })
      },
    )
    return () => controller.abort()
  }, [key])

  const loadMore = async () => {
    if (load.state !== 'ready' || !load.next) return
    setLoad({ ...load, more: 'loading' })
    try {
      const page = await listAudit({ ...apiQuery(filters), before: load.next })
      setLoad({
        state: 'ready',
        events: [...load.events, ...page.events],
        next: page.next,
        more: 'idle',
      })
    } catch (error) {
      setLoad({ state: 'failed', message: errorMessage(error) })
    }
  }

  const exportCsv = async () => {
    setExporting(true)
    setExportError(null)
    try {
      const blob = await downloadAuditCsv(apiQuery(filters))
      const link = document.createElement('a')
      link.href = URL.createObjectURL(blob)
      link.download = `auditoria-${new Date().toISOString().slice(0, 10)}.csv`
      link.click()
      setTimeout(() => URL.revokeObjectURL(link.href), 60_000)
    } catch (error) {
      setExportError(errorMessage(error))
    } finally {
      setExporting(false)
    }
  }

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
    <>
      <div className="d-flex flex-wrap align-items-center gap-2 mb-1">
        <h1 className="h2 mb-0 me-auto">{text.title}</h1>
        <CButton
          color="secondary"
          variant="outline"
          disabled={exporting}
          onClick={() => void exportCsv()}
        >
          {exporting && <CSpinner as="span" size="sm" aria-hidden="true" className="me-2" />}
          {exporting ? text.exporting : text.export}
        </CButton>
      </div>
      <p className="text-body-secondary">{text.intro}</p>
      <Notice text={exportError} />
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
          setParams(next)
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
        {params.size > 0 && (
          <CButton type="button" color="link" onClick={() => setParams(new URLSearchParams())}>
            {text.clear}
          </CButton>
        )}
      </form>

      {load.state === 'loading' && (
        <div className="d-flex align-items-center gap-2" role="status">
          <CSpinner size="sm" aria-hidden="true" />
          {adminMessages.loading}
        </div>
      )}
      {load.state === 'failed' && <Notice text={load.message} />}
      {load.state === 'ready' &&
        (load.events.length === 0 ? (
          <p>{text.empty}</p>
        ) : (
          <>
            <AuditEventList events={load.events} label={text.listLabel} />
            {load.next && (
              <CButton
                className="mt-3"
                color="secondary"
                variant="outline"
                disabled={load.more === 'loading'}
                onClick={() => void loadMore()}
              >
                {text.more}
              </CButton>
            )}
          </>
        ))}
    </>
  )
}
