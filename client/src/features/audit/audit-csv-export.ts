import { useState } from 'react'
import type { AuditQuery } from '../../../../common/api/audit'
import { errorMessage } from '../../session/api-client'
import { downloadAuditCsv } from './audit-api'

/** The CSV of the filtered log, downloaded as a file; whether it is on its way, and why it failed. */
export function useAuditCsvExport(query: AuditQuery) {
  const [exporting, setExporting] = useState(false)
  const [exportError, setExportError] = useState<string | null>(null)
  const exportCsv = async () => {
    setExporting(true)
    setExportError(null)
    try {
      const blob = await downloadAuditCsv(query)
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
  return { exporting, exportError, exportCsv }
}
