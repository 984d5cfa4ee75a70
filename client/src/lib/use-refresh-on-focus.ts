import { useEffect, useRef } from 'react'

/**
 * Calls `refresh` when the tab comes back into view or the window regains the focus: an admin
 * returning to the panel sees registrations that arrived meanwhile without reloading.
 */
export function useRefreshOnFocus(refresh: () => void): void {
  const latest = useRef(refresh)
  latest.current = refresh
  useEffect(() => {
    const onVisible = () => {
      if (document.visibilityState === 'visible') latest.current()
    }
    const onFocus = () => latest.current()
    document.addEventListener('visibilitychange', onVisible)
    window.addEventListener('focus', onFocus)
    return () => {
      document.removeEventListener('visibilitychange', onVisible)
      window.removeEventListener('focus', onFocus)
    }
  }, [])
}
