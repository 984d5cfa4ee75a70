import { CButton, CSpinner } from '@coreui/react'
import { useEffect, useId, useRef, useState } from 'react'
import { securityMessages } from '../messages-account-security'
import { ApiError } from '../lib/api-client'
import { Notice } from '../lib/notice'

const text = securityMessages.idle

/**
 * "Sua sessão vai expirar…": a modal alert dialog (the browser's <dialog>, so focus stays in it
 * and the page behind is inert), its first button focused. Escape means "I am here": it renews,
 * like "Continuar conectado". The countdown is not a live region (a screen reader would read it
 * every second); the sentence is read once, as the dialog's description, when it opens.
 * Loaded only when the warning is due, so the layout's chunk does not carry it.
 */
export default function IdleWarningDialog({
  endsAt,
  onRenew,
  onSignOut,
}: {
  endsAt: number
  onRenew: () => Promise<void>
  onSignOut: () => void
}) {
  const dialog = useRef<HTMLDialogElement>(null)
  const keep = useRef<HTMLButtonElement>(null)
  const titleId = useId()
  const bodyId = useId()
  const [now, setNow] = useState(() => Date.now())
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)

  useEffect(() => {
    const element = dialog.current
    if (element && !element.open) element.showModal()
    keep.current?.focus()
    return () => element?.close()
  }, [])

  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000)
    return () => clearInterval(timer)
  }, [])

  const renew = async () => {
    if (busy) return
    setBusy(true)
    setError(null)
    try {
      await onRenew()
    } catch (caught) {
      // A 401 has already ended the session (the login page says why); anything else may pass.
      if (!(caught instanceof ApiError && caught.status === 401)) setError(text.failed)
      setBusy(false)
    }
  }

  return (
    <dialog
      ref={dialog}
      role="alertdialog"
      aria-modal="true"
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      onCancel={(event) => {
        event.preventDefault()
        void renew()
      }}
      style={{
        width: 'min(28rem, calc(100vw - 2rem))',
        padding: 0,
        border: '1px solid var(--cui-border-color)',
        borderRadius: 'var(--cui-border-radius-lg)',
        background: 'var(--cui-body-bg)',
        color: 'var(--cui-body-color)',
        boxShadow: 'var(--cui-box-shadow-lg)',
      }}
    >
      <div className="p-3">
        <h2 id={titleId} className="h5">
          {text.title}
        </h2>
        <p id={bodyId}>{text.body(Math.max(0, Math.round((endsAt - now) / 1000)))}</p>
        <Notice text={error} />
        <div className="d-flex flex-wrap justify-content-end gap-2">
          <CButton
            type="button"
            color="secondary"
            variant="outline"
            disabled={busy}
            onClick={onSignOut}
          >
            {text.leave}
          </CButton>
          <CButton
            ref={keep}
            type="button"
            color="primary"
            disabled={busy}
            onClick={() => void renew()}
          >
            {busy && <CSpinner as="span" size="sm" aria-hidden="true" className="me-2" />}
            {text.keep}
          </CButton>
        </div>
      </div>
    </dialog>
  )
}
