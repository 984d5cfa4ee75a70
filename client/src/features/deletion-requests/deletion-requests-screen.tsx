import { CButton, CCard, CCardBody, CFormLabel, CSpinner } from '@coreui/react'
import { useId, useState } from 'react'
import { Link } from 'react-router-dom'
import type { DeletionRequestList } from '../../../../common/api/account-deletion'
import { REFUSAL_REASON_MAX_LENGTH } from '../../../../common/api/staff'
import { ApiError } from '../../session/api-client'
import { listDeletionRequests } from '../../api/deletion-requests-api'
import { useLoad } from '../../api/use-load'
import { useRefreshOnFocus } from '../../api/use-refresh-on-focus'
import { staffAccountPath } from '../../routing/paths'
import { ConfirmDialog } from '../../ui/confirm-dialog'
import { formatDateTime } from '../../ui/format-date'
import { StaleNotice } from '../../ui/load-notices'
import { Notice } from '../../ui/notice'
import { RefreshButton } from '../../ui/refresh-button'
import { useConfirmedAction } from '../../ui/use-confirmed-action'
import { adminMessages } from '../../words/admin-messages'
import { anonymiseAccount, refuseDeletionRequest } from './deletion-requests-api'
import { deletionRequestsMessages as text } from './deletion-requests-messages'

type Request = DeletionRequestList['requests'][number]
type Decision = { kind: 'anonymise' | 'refuse'; request: Request }

/** Pedidos de exclusão (admins): each open request, anonymised or refused with a reason. */
export default function DeletionRequestsScreen() {
  const { load, reload, busy } = useLoad(listDeletionRequests, '', { keepOnFailure: true })
  useRefreshOnFocus(reload)
  const [notice, setNotice] = useState<string | null>(null)
  const { asking, busy: deciding, error, ask, confirm, cancel } = useConfirmedAction<Decision>()
  const [reason, setReason] = useState('')
  const reasonId = useId()

  const decide = async ({ kind, request }: Decision) => {
    const { id, name } = request.account
    if (kind === 'anonymise') {
      await anonymiseAccount(id)
      setNotice(text.anonymised(name))
    } else {
      // Checked here, in pt-BR, before the server's own check says the same.
      if (!reason.trim()) throw new ApiError(400, 'missing_reason', text.missingReason)
      await refuseDeletionRequest(id, reason.trim())
      setNotice(text.refused(name))
    }
    reload()
  }

  const requests = load.state === 'ready' ? load.data.requests : null
  return (
    <>
      <div className="d-flex flex-wrap align-items-center gap-2 mb-1">
        <h1 className="h2 mb-0 me-auto">{text.title}</h1>
        <RefreshButton busy={busy} onClick={reload} />
      </div>
      <p className="text-body-secondary">{text.intro}</p>
      <Notice color="success" text={notice} />
      {load.state === 'loading' && <CSpinner size="sm" aria-label={adminMessages.loading} />}
      {load.state === 'failed' && <Notice text={load.message} />}
      <StaleNotice load={load} />
      {requests && (
        <CCard>
          <CCardBody>
            <p className="small text-body-secondary mb-2" role="status">
              {requests.length === 0 ? text.none : text.total(requests.length)}
            </p>
            {requests.length > 0 && (
              <ul className="list-unstyled mb-0">
                {requests.map((request) => (
                  <li
                    key={request.id}
                    className="d-flex flex-wrap align-items-center gap-2 py-2 border-top"
                  >
                    <div className="me-auto" style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
                      <Link to={staffAccountPath(request.account.id)} className="fw-semibold">
                        {request.account.name}
                      </Link>
                      <div className="small">{request.account.email}</div>
                      <div className="small text-body-secondary">
                        {text.askedAt(formatDateTime(request.requestedAt))}
                      </div>
                    </div>
                    <div className="d-flex gap-2">
                      <CButton
                        color="secondary"
                        variant="outline"
                        onClick={() => {
                          setReason('')
                          ask({ kind: 'refuse', request })
                        }}
                      >
                        {text.refuse}
                      </CButton>
                      <CButton color="danger" onClick={() => ask({ kind: 'anonymise', request })}>
                        {text.anonymise}
                      </CButton>
                    </div>
                  </li>
                ))}
              </ul>
            )}
          </CCardBody>
        </CCard>
      )}
      {asking && (
        <ConfirmDialog
          title={
            asking.kind === 'anonymise'
              ? text.anonymiseTitle(asking.request.account.name)
              : text.refuseTitle(asking.request.account.name)
          }
          body={
            asking.kind === 'anonymise'
              ? text.anonymiseBody(asking.request.account.name)
              : text.refuseBody(asking.request.account.name)
          }
          confirmLabel={asking.kind === 'anonymise' ? text.anonymiseConfirm : text.refuseConfirm}
          cancelLabel={adminMessages.cancel}
          danger={asking.kind === 'anonymise'}
          busy={deciding}
          error={error}
          onConfirm={() => void confirm(decide)}
          onCancel={cancel}
        >
          {asking.kind === 'refuse' && (
            <div className="mb-3">
              <CFormLabel htmlFor={reasonId}>{text.reason}</CFormLabel>
              <textarea
                id={reasonId}
                className="form-control"
                required
                maxLength={REFUSAL_REASON_MAX_LENGTH}
                rows={3}
                value={reason}
                onChange={(event) => setReason(event.target.value)}
              />
            </div>
          )}
        </ConfirmDialog>
      )}
    </>
  )
}
