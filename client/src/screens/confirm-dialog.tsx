import { CButton, CSpinner } from '@coreui/react'
import { useEffect, useId, useRef, type ReactNode } from 'react'
import { adminMessages } from '../messages-admin'
import { Notice } from '../lib/notice'

/**
 * A modal question before an action: the browser's own <dialog> (focus kept inside, Escape
 * cancels, the page behind inert), styled with CoreUI's variables through the style attribute so
 * the shared stylesheet does not grow.
 */
export function ConfirmDialog({
  title,
  body,
  confirmLabel,
  danger = false,
  busy,
  error,
  children,
  onConfirm,
  onCancel,
}: {
  title: string
  body: string
  confirmLabel: string
  danger?: boolean
  busy: boolean
  error: string | null
  children?: ReactNode
  onConfirm: () => void
  onCancel: () => void
}) {
  const dialog = useRef<HTMLDialogElement>(null)
  const titleId = useId()
  const bodyId = useId()

  useEffect(() => {
    const element = dialog.current
    if (element && !element.open) element.showModal()
    return () => element?.close()
  }, [])

  return (
    <dialog
      ref={dialog}
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      onCancel={(event) => {
        event.preventDefault()
        if (!busy) onCancel()
      }}
      style={{
        width: 'min(32rem, calc(100vw - 2rem))',
        padding: 0,
        border: '1px solid var(--cui-border-color)',
        borderRadius: 'var(--cui-border-radius-lg)',
        background: 'var(--cui-body-bg)',
        color: 'var(--cui-body-color)',
        boxShadow: 'var(--cui-box-shadow-lg)',
      }}
    >
      <form
        method="dialog"
        className="p-3"
        onSubmit={(event) => {
          event.preventDefault()
          onConfirm()
        }}
      >
        <h2 id={titleId} className="h5">
          {title}
        </h2>
        <p id={bodyId}>{body}</p>
        {children}
        <Notice text={error} />
        <div className="d-flex flex-wrap justify-content-end gap-2">
          <CButton
            type="button"
            color="secondary"
            variant="outline"
            disabled={busy}
            onClick={onCancel}
          >
            {adminMessages.cancel}
          </CButton>
          <CButton type="submit" color={danger ? 'danger' : 'primary'} disabled={busy}>
            {busy && <CSpinner as="span" size="sm" aria-hidden="true" className="me-2" />}
            {confirmLabel}
          </CButton>
        </div>
      </form>
    </dialog>
  )
}
