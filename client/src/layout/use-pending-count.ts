import { useCallback, useEffect, useState } from 'react'
import { countPendingInBackground, STAFF_CHANGED_EVENT } from '../features/staff/staff-api'
import { useRefreshOnFocus } from '../api/use-refresh-on-focus'

/** How often the sidebar asks again while the tab stays open and in view. */
const EVERY_MS = 60_000

/**
 * The number of registrations waiting, for admins (null for everyone else, or while unknown):
 * asked when the layout opens, every minute, when the tab comes back into view, and at once
 * when an admin acts in Equipe.
 */
export function usePendingCount(isAdmin: boolean): number | null {
  const [count, setCount] = useState<number | null>(null)
  const [asks, setAsks] = useState(0)
  const askAgain = useCallback(() => setAsks((value) => value + 1), [])
  useRefreshOnFocus(askAgain)

  useEffect(() => {
    if (!isAdmin) return
    const ask = () => setAsks((value) => value + 1)
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') ask()
    }, EVERY_MS)
    window.addEventListener(STAFF_CHANGED_EVENT, ask)
    return () => {
      clearInterval(timer)
      window.removeEventListener(STAFF_CHANGED_EVENT, ask)
    }
  }, [isAdmin])

  useEffect(() => {
    if (!isAdmin) return
    const controller = new AbortController()
    countPendingInBackground(controller.signal).then(
      (list) => setCount(list.total),
      // A badge is a hint: on failure it keeps what it showed.
      () => undefined,
    )
    return () => controller.abort()
  }, [isAdmin, asks])

  return isAdmin ? count : null
}
