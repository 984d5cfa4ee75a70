import { useEffect, useState } from 'react'
import { idleWarningMessages } from './idle-warning-messages'
import { ApiError } from '../session/api-client'
import { ConfirmDialog } from '../ui/confirm-dialog'

const text = idleWarningMessages

/**
 * "Sua sessão vai expirar…": a modal alert dialog, "Continuar conectado" focused. Escape means
 * "I am here": it renews, like that button. The countdown is not a live region (a screen reader
 * would read it every second); the sentence is read once, as the dialog's description, when it
 * opens. Loaded only when the warning is due, so the layout's chunk does not carry it.
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
  const [now, setNow] = useState(() => Date.now())
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)

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
    <ConfirmDialog
      alert
      title={text.title}
      body={text.body(Math.max(0, Math.round((endsAt - now) / 1000)))}
      confirmLabel={text.keep}
      cancelLabel={text.leave}
      busy={busy}
      error={error}
      onConfirm={() => void renew()}
      onCancel={onSignOut}
      onEscape={() => void renew()}
    />
  )
}
