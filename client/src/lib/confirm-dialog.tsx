import { CButton, CSpinner } from '@coreui/react'
import { useEffect, useId, useRef, type ReactNode } from 'react'
import { Notice } from './notice'

/**
 * A modal question before an action: the browser's own <dialog> (focus kept inside, the page
 * behind inert), styled with CoreUI's variables through the style attribute so the shared
 * stylesheet does not grow. Escape cancels, unless `onEscape` says otherwise.
 * `alert`: something is about to happen without the user (the idle warning): an alert dialog,
 * its confirming button focused.
 */
export function ConfirmDialog({
  title,
  body,
  confirmLabel,
  cancelLabel,
  danger = false,
  alert = false,
  busy,
  error,
  children,
  onConfirm,
  onCancel,
  onEscape = onCancel,
}: {
  title: string
  body: string
  confirmLabel: string
  cancelLabel: string
  danger?: boolean
  alert?: boolean
  busy: boolean
  error: string | null
  children?: ReactNode
  onConfirm: () => void
  onCancel: () => void
  onEscape?: () => void
}) {
  const dialog = useRef<HTMLDialogElement>(null)
  const confirmButton = useRef<HTMLButtonElement>(null)
  const titleId = useId()
  const bodyId = useId()

  useEffect(() => {
    const element = dialog.current
    if (element && !element.open) element.showModal()
    if (alert) confirmButton.current?.focus()
    return () => element?.close()
  }, [alert])

  return (
    <dialog
      ref={dialog}
      role={alert ? 'alertdialog' : undefined}
      aria-modal={alert ? 'true' : undefined}
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      onCancel={(event) => {
        event.preventDefault()
        if (!busy) onEscape()
      }}
      style={{
        width: `min(${alert ? 28 : 32}rem, calc(100vw - 2rem))`,
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
            {cancelLabel}
          </CButton>
          <CButton
            ref={confirmButton}
            type="submit"
            color={danger ? 'danger' : 'primary'}
            disabled={busy}
          >
            {busy && <CSpinner as="span" size="sm" aria-hidden="true" className="me-2" />}
            {confirmLabel}
          </CButton>
        </div>
      </form>
    </dialog>
  )
}
