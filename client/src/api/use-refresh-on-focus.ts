import { useEffect } from 'react'

/**
 * Calls `refresh` (keep it stable: useCallback) when the tab comes back into view or the window
 * regains the focus: an admin returning to the panel sees registrations that arrived meanwhile
 * without reloading.
 */
export function useRefreshOnFocus(refresh: () => void): void {
  useEffect(() => {
    const onVisible = () => {
      if (document.visibilityState === 'visible') refresh()
    }
    document.addEventListener('visibilitychange', onVisible)
    window.addEventListener('focus', refresh)
    return () => {
      document.removeEventListener('visibilitychange', onVisible)
      window.removeEventListener('focus', refresh)
    }
  }, [refresh])
}
