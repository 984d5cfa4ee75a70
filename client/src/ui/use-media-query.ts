import { useSyncExternalStore } from 'react'

/**
 * Whether a media query matches, kept current. The screens choose their layout (table or cards)
 * in script rather than in CSS, so the shared stylesheet, which the login page loads too, does
 * not grow for admin screens.
 */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (changed) => {
      const list = window.matchMedia(query)
      list.addEventListener('change', changed)
      return () => list.removeEventListener('change', changed)
    },
    () => window.matchMedia(query).matches,
  )
}

/** CoreUI's `lg` breakpoint: from here the Equipe list is a table. */
export const WIDE = '(min-width: 992px)'
