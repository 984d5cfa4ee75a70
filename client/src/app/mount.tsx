import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './app'
import type { AppStore } from './store'

/**
 * Renders the panel into its element. A module of its own, not inline in main.tsx: the build's
 * common chunk takes the entry's own modules and the packages they use (common-chunk.ts), and
 * main.tsx, an entry point, is not one of them; here react-dom joins that chunk instead of making
 * a seventh request of the login page.
 */
export function mountApp(container: Element, store: AppStore): void {
  createRoot(container).render(
    <StrictMode>
      <App store={store} />
    </StrictMode>,
  )
}
