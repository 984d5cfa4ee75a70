import { createContext, useContext, useLayoutEffect } from 'react'

/**
 * Called when a page itself (not its spinner) has been committed, before that frame is painted.
 * Hydration needs it: React 18 hydrates what is inside a Suspense boundary (each page is in one,
 * router.tsx) in a pass after the root's first commit, and only then is the prerendered sign-in
 * form React's, its submit handler included (mount.tsx).
 */
export const PageCommitted = createContext<() => void>(() => {})

/** Rendered beside each page, inside its Suspense boundary. Renders nothing. */
export function SignalPageCommitted() {
  const onCommit = useContext(PageCommitted)
  useLayoutEffect(onCommit, [onCommit])
  return null
}
