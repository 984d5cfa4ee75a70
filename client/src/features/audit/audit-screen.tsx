import { CButton, CSpinner } from '@coreui/react'
import { useState } from 'react'
import { useSearchParams } from 'react-router-dom'
import type { AuditPage } from '../../../../common/api/audit'
import { errorMessage } from '../../api/api-client'
import { useLoad } from '../../api/use-load'
import { AuditEventList } from '../../audit-log/audit-event-list'
import { listAudit } from '../../audit-log/audit-log-api'
import { Notice } from '../../ui/notice'
import { adminMessages } from '../../words/admin-messages'
import { useAuditCsvExport } from './audit-csv-export'
import { apiQuery, AuditFilters, filtersFrom, type Filters } from './audit-filters'
import { auditMessages } from './audit-messages'

const text = auditMessages

/** Auditoria (admins): the log, filtered, newest first, a page at a time; CSV of the same. */
export default function AuditScreen() {
  const [params, setParams] = useSearchParams()
  const filters = filtersFrom(params)
  const key = JSON.stringify(filters)
  // A new filter is a new list: the spinner shows until it comes.
  const { load, set } = useLoad<Pick<AuditPage, 'events' | 'next'>>(
    (signal) => listAudit(apiQuery(JSON.parse(key) as Filters), signal),
    key,
    { loadingOnChange: true },
  )
  const [loadingMore, setLoadingMore] = useState(false)
  const { exporting, exportError, exportCsv } = useAuditCsvExport(apiQuery(filters))

  const loadMore = async () => {
    if (load.state !== 'ready' || !load.data.next) return
    setLoadingMore(true)
    try {
      const page = await listAudit({ ...apiQuery(filters), before: load.data.next })
      set({
        state: 'ready',
        data: { events: [...load.data.events, ...page.events], next: page.next },
      })
    } catch (error) {
      set({ state: 'failed', message: errorMessage(error), error })
    } finally {
      setLoadingMore(false)
    }
  }

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
      <AuditFilters filters={filters} anySet={params.size > 0} apply={setParams} />

      {load.state === 'loading' && (
        <div className="d-flex align-items-center gap-2" role="status">
          <CSpinner size="sm" aria-hidden="true" />
          {adminMessages.loading}
        </div>
      )}
      {load.state === 'failed' && <Notice text={load.message} />}
      {load.state === 'ready' &&
        (load.data.events.length === 0 ? (
          <p>{text.empty}</p>
        ) : (
          <>
            <AuditEventList events={load.data.events} label={text.listLabel} />
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
