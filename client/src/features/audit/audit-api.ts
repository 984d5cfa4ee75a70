import type { AuditCsvQuery, AuditQuery } from '../../../../common/api/audit'
import { apiDownload } from '../../session/api-client'
import { queryString } from '../../api/query-string'

/** The CSV's times in this browser's time zone, as the screen shows them. */
export const downloadAuditCsv = (query: AuditQuery) => {
  const withZone: AuditCsvQuery = { ...query, tz: Intl.DateTimeFormat().resolvedOptions().timeZone }
  return apiDownload(`audit.csv${queryString(withZone)}`)
}
