import { useState } from 'react'
import { errorMessage } from '../session/api-client'

/**
 * An action that asks first (a ConfirmDialog): what is being asked, whether the confirmed action
 * is under way, and why the server refused it. The dialog stays open, busy, until the server
 * answers; a refusal shows in it, and success closes it.
 */
export function useConfirmedAction<Question>() {
  const [asking, setAsking] = useState<Question | null>(null)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)

  const ask = (question: Question) => {
    setError(null)
    setAsking(question)
  }

  const confirm = async (act: (question: Question) => Promise<void>) => {
    if (asking === null) return
    setBusy(true)
    setError(null)
    try {
      await act(asking)
      setAsking(null)
    } catch (caught) {
      setError(errorMessage(caught))
    } finally {
      setBusy(false)
    }
  }

  return { asking, busy, error, ask, confirm, cancel: () => setAsking(null) }
}
