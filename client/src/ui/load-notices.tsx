import { CSpinner } from '@coreui/react'
import type { Load } from '../api/use-load'
import { adminMessages } from '../words/admin-messages'
import { Notice } from './notice'

/** A list's or card's "Carregando…" beside a small spinner, announced as a status. */
export function LoadingLine() {
  return (
    <div className="d-flex align-items-center gap-2" role="status">
      <CSpinner size="sm" aria-hidden="true" />
      {adminMessages.loading}
    </div>
  )
}

/** Above a list kept on screen after its refresh failed (useLoad's keepOnFailure): why it may be old. */
export function StaleNotice({ load }: { load: Load<unknown> }) {
  return (
    <Notice
      color="warning"
      text={
        load.state === 'ready' && load.staleBecause ? adminMessages.stale(load.staleBecause) : null
      }
    />
  )
}
