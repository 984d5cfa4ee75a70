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

/**
 * From 1280 px the Equipe list is a table: beside the sidebar (shown from CoreUI's `lg`) the
 * content area is then at least 976 px, the room its columns need with the name column's 12rem
 * and a role's name of up to 10rem (staff-list-views.tsx); below, cards.
 */
export const WIDE = '(min-width: 1280px)'

/**
 * A phone's screen: below CoreUI's `md` (768 px), where what must stay in reach is pinned to the
 * bottom of the screen rather than left at the top of a long page.
 */
export const PHONE = '(max-width: 767.98px)'
