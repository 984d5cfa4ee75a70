import { useEffect } from 'react'

/**
 * Calls `refresh` (keep it stable: useCallback) when the tab comes back into view, the window
 * regains the focus or the browser is back online: an admin returning to the panel sees
 * registrations that arrived meanwhile without reloading, and a list kept while offline is
 * brought up to date as soon as it can be.
 */
export function useRefreshOnFocus(refresh: () => void): void {
  useEffect(() => {
    const onVisible = () => {
      if (document.visibilityState === 'visible') refresh()
    }
    document.addEventListener('visibilitychange', onVisible)
    window.addEventListener('focus', refresh)
    window.addEventListener('online', refresh)
    return () => {
      document.removeEventListener('visibilitychange', onVisible)
      window.removeEventListener('focus', refresh)
      window.removeEventListener('online', refresh)
    }
  }, [refresh])
}
