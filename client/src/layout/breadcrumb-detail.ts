import { useEffect, useSyncExternalStore } from 'react'
import { useLocation } from 'react-router-dom'

/**
 * What a screen wants the breadcrumb to call its page when its title alone says too little (an
 * account's page: the person's name). Kept for the path it was said for, so a screen left behind
 * never names the next one.
 */
interface Detail {
  pathname: string
  label: string
}

let detail: Detail | null = null
const listeners = new Set<() => void>()

function set(next: Detail | null) {
  detail = next
  for (const listener of listeners) listener()
}

function subscribe(listener: () => void) {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

/** The label a screen gave this path, if any. */
export function useBreadcrumbDetail(pathname: string): string | null {
  const current = useSyncExternalStore(subscribe, () => detail)
  return current?.pathname === pathname ? current.label : null
}

/** Names the current page in the breadcrumb while the screen shows it (null: nothing yet). */
export function useNameInBreadcrumb(label: string | null): void {
  const { pathname } = useLocation()
  useEffect(() => {
    if (label === null) return
    set({ pathname, label })
    return () => set(null)
  }, [pathname, label])
}
