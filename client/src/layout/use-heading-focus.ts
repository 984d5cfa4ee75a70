import { useEffect, useRef, type RefObject } from 'react'
import { useLocation } from 'react-router-dom'

/** Long enough for a screen's chunk on a slow line; after that the person has moved on. */
const WAIT_FOR_HEADING_MS = 10_000

/**
 * Moves the focus to the new screen's heading (its <h1>) when another screen is chosen: from the
 * sidebar, a link or the browser's history. Without it focus stayed on the sidebar's link, and a
 * keyboard user tabbed through the whole menu and header again to reach the screen (13 Tabs to
 * "Novo e-mail" in Minha conta). From the heading, one Tab reaches the screen's first control,
 * and a screen reader reads where the person arrived.
 *
 * Screens load on demand (app/router.tsx), so the heading is waited for. A screen that puts the
 * focus somewhere itself (a field, a success notice: ui/notice.tsx) keeps it, and so does the
 * first screen of a visit (focus starts at the top of the page, where the skip link is). The
 * heading is made focusable here (tabIndex -1: by script, not by Tab), so each screen need not.
 */
export function useHeadingFocusOnNavigation(
  main: RefObject<HTMLElement | null>,
  /** The screen the visit began on: a change before this hook was loaded still counts. */
  firstPathname: string,
): void {
  const { pathname } = useLocation()
  const shown = useRef(firstPathname)
  useEffect(() => {
    const previous = shown.current
    shown.current = pathname
    const root = main.current
    if (previous === pathname || !root) return

    // True once done: the heading has the focus, or the screen has put it elsewhere in itself.
    // A heading not shown (the screen before, hidden by Suspense while this one loads) cannot
    // take it: waited past.
    const focusHeading = (): boolean => {
      const active = document.activeElement
      if (active && active !== document.body && active !== root && root.contains(active))
        return true
      const heading = [...root.querySelectorAll('h1')].find((each) => each.getClientRects().length)
      if (!heading) return false
      if (!heading.hasAttribute('tabindex')) heading.tabIndex = -1
      heading.focus()
      return document.activeElement === heading
    }
    if (focusHeading()) return
    const observer = new MutationObserver(() => {
      if (focusHeading()) observer.disconnect()
    })
    observer.observe(root, {
      childList: true,
      subtree: true,
      attributes: true,
      attributeFilter: ['style'],
    })
    const timer = setTimeout(() => observer.disconnect(), WAIT_FOR_HEADING_MS)
    return () => {
      observer.disconnect()
      clearTimeout(timer)
    }
  }, [pathname, main])
}
