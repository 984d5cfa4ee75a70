import { CButton, CSpinner } from '@coreui/react'
import { useState } from 'react'
import type { AuditPage } from '../../../../common/api/audit'
import { errorMessage } from '../../session/api-client'
import { useLoad } from '../../api/use-load'
import { AuditEventList } from '../../audit-log/audit-event-list'
import { listAudit } from '../../audit-log/audit-log-api'
import { useFilterParams } from '../../routing/filter-params'
import { LoadingLine, StaleNotice } from '../../ui/load-notices'
import { Notice } from '../../ui/notice'
import { RefreshButton } from '../../ui/refresh-button'
import { useAuditCsvExport } from './audit-csv-export'
import { useAccess } from '../../session/use-access'
import { AuditFilters } from './audit-filters'
import { auditMessages } from './audit-messages'
import { apiQuery, filtersFrom, rangeInverted, type Filters } from './audit-query'

const text = auditMessages

/** Auditoria (admins): the log, filtered, newest first, a page at a time; CSV of the same. */
export default function AuditScreen() {
  const { params, update, clear } = useFilterParams()
  const filters = filtersFrom(params)
  const key = JSON.stringify(filters)
  // An inverted range can hold nothing: it is said on the field, and nothing is asked.
  const inverted = rangeInverted(filters)
  // A new filter is a new list: the spinner shows until it comes. A refresh that fails (offline)
  // keeps the events on screen, saying they may be out of date.
  const { load, set, reload, busy } = useLoad<Pick<AuditPage, 'events' | 'next'>>(
    (signal) => listAudit(apiQuery(JSON.parse(key) as Filters), signal),
    inverted ? null : key,
    { loadingOnChange: true, keepOnFailure: true },
  )
  const [loadingMore, setLoadingMore] = useState(false)
  const [moreError, setMoreError] = useState<string | null>(null)
  // The first event "Carregar mais" brought: the keyboard focus goes on from there.
  const [firstNew, setFirstNew] = useState<{ index: number } | undefined>(undefined)
  const { exporting, exportError, exportCsv } = useAuditCsvExport(apiQuery(filters))
  // audit.view opens the log; exporting it is audit.export.
  const mayExport = useAccess().can('audit.export')

  const loadMore = async () => {
    if (load.state !== 'ready' || !load.data.next) return
    setLoadingMore(true)
    setMoreError(null)
    try {
      const page = await listAudit({ ...apiQuery(filters), before: load.data.next })
      setFirstNew({ index: load.data.events.length })
      set({
        state: 'ready',
        data: { events: [...load.data.events, ...page.events], next: page.next },
      })
    } catch (error) {
      // The events already read stay; "Carregar mais" is there to try again.
      setMoreError(text.moreFailed(errorMessage(error)))
    } finally {
      setLoadingMore(false)
    }
  }

  return (
    <>
      <div className="d-flex flex-wrap align-items-center gap-2 mb-1">
        <h1 className="h2 mb-0 me-auto">{text.title}</h1>
        <RefreshButton busy={busy} onClick={reload} />
        {mayExport && (
          <CButton
            color="secondary"
            variant="outline"
            disabled={exporting || inverted}
            onClick={() => void exportCsv()}
          >
            {exporting && <CSpinner as="span" size="sm" aria-hidden="true" className="me-2" />}
            {exporting ? text.exporting : text.export}
          </CButton>
        )}
      </div>
      <p className="text-body-secondary">{text.intro}</p>
      <Notice text={exportError} />
      <AuditFilters filters={filters} anySet={params.size > 0} update={update} clear={clear} />

      {!inverted && load.state === 'loading' && <LoadingLine />}
      {!inverted && load.state === 'failed' && <Notice text={load.message} />}
      {!inverted &&
        load.state === 'ready' &&
        (load.data.events.length === 0 ? (
          <p>{text.empty}</p>
        ) : (
          <>
            <StaleNotice load={load} />
            <AuditEventList events={load.data.events} label={text.listLabel} focusAt={firstNew} />
            <Notice text={moreError} />
            {load.data.next && (
              <CButton
                className="mt-3"
                color="secondary"
                variant="outline"
                disabled={loadingMore}
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
