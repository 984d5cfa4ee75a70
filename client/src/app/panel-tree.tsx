import { StrictMode, useLayoutEffect, type ReactNode } from 'react'
import { App } from './app'
import type { AppStore } from './store'

/** Calls back after React's first commit, before that frame is painted. */
function AfterFirstCommit({ onCommit, children }: { onCommit: () => void; children: ReactNode }) {
  useLayoutEffect(onCommit, [onCommit])
  return children
}

/**
 * The whole panel as React renders it: the build's prerender (scripts/build/prerender.ts) and the
 * browser use this one tree, so that hydration finds exactly what the build wrote. The wrapper
 * renders nothing of its own and does not change the ids useId gives. `router` is left out in the
 * browser (the hash router); the build passes a static router at #/login.
 */
export function panelTree(
  store: AppStore,
  onFirstCommit: () => void = () => {},
  router?: ReactNode,
) {
  return (
    <StrictMode>
      <AfterFirstCommit onCommit={onFirstCommit}>
        <App store={store} router={router} />
      </AfterFirstCommit>
    </StrictMode>
  )
}
