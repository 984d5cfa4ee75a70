import type { ReactNode } from 'react'
import { Provider } from 'react-redux'
import { PanelRouter } from './router'
import type { AppStore } from '../state/store'

/**
 * The panel. `router` is the browser's hash router; the build's prerender (prerender/
 * render-sign-in.tsx) passes a static one at #/login around the same routes.
 */
export function App({ store, router = <PanelRouter /> }: { store: AppStore; router?: ReactNode }) {
  return <Provider store={store}>{router}</Provider>
}
