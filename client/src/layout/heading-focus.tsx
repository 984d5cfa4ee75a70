import type { RefObject } from 'react'
import { useHeadingFocusOnNavigation } from './use-heading-focus'

/**
 * The heading's focus on a change of screen (use-heading-focus.ts), as a component of its own:
 * loaded after the layout (default-layout.tsx), outside the dashboard's cold-load budget. The
 * first change of screen comes after it has loaded: a person needs longer to choose one.
 */
export default function HeadingFocus({
  main,
  firstPathname,
}: {
  main: RefObject<HTMLElement | null>
  firstPathname: string
}) {
  useHeadingFocusOnNavigation(main, firstPathname)
  return null
}
