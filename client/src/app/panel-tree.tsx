import { StrictMode, useLayoutEffect, type ReactNode } from 'react'
import { App } from './app'
import { PageCommitted } from './page-committed'
import type { AppStore } from '../state/store'

/** Calls back after React's first commit, before that frame is painted. */
function AfterFirstCommit({ onCommit, children }: { onCommit: () => void; children: ReactNode }) {
  useLayoutEffect(onCommit, [onCommit])
  return children
}

const nothing = () => {}

interface PanelTreeOptions {
  /** After React's first commit, whatever it shows (a page or a spinner). */
  onFirstCommit?: () => void
  /** After each commit of a page itself, inside its Suspense boundary (page-committed.tsx). */
  onPageCommit?: () => void
  /** The browser's hash router when left out; the build passes a static one at #/login. */
  router?: ReactNode
}

/**
 * The whole panel as React renders it: the build's prerender (scripts/build/prerender.ts) and the
 * browser use this one tree, so that hydration finds exactly what the build wrote. The wrappers
 * render nothing of their own and do not change the ids useId gives.
 */
export function panelTree(
  store: AppStore,
  { onFirstCommit = nothing, onPageCommit = nothing, router }: PanelTreeOptions = {},
) {
  return (
    <StrictMode>
      <AfterFirstCommit onCommit={onFirstCommit}>
        <PageCommitted.Provider value={onPageCommit}>
          <App store={store} router={router} />
        </PageCommitted.Provider>
      </AfterFirstCommit>
    </StrictMode>
  )
}
