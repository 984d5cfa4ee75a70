import '@coreui/coreui/dist/css/coreui.min.css'
import './app/app.css'
import { canHydrateSignIn, hydratePanel, renderPanel } from './app/mount'
import { reloadOnceOnChunkError } from './routing/reload-on-chunk-error'
import { createAppStore } from './state/store'
import { DEFAULT_COLOR_MODE, readStoredColorMode } from './state/color-mode'
import { startColorModeSync } from './theme/color-mode-sync'

declare const __DEV__: boolean

reloadOnceOnChunkError()

const container = document.getElementById('root')
if (!container) throw new Error('index.html has no #root element')

const storedMode = readStoredColorMode() ?? DEFAULT_COLOR_MODE

if (canHydrateSignIn(container)) {
  // The first render must be the build's, so it starts from the initial state, colour mode
  // included. The stored mode is already on <html> (the boot script put it there) and reaches
  // the store right after hydration, before anything is painted.
  const store = createAppStore()
  void hydratePanel(container, store, () => {
    // Read again: a theme parameter typed while the page hydrated may have chosen another mode.
    store.dispatch({ type: 'set', theme: readStoredColorMode() ?? DEFAULT_COLOR_MODE })
    startColorModeSync(store)
  })
} else {
  const store = createAppStore({ theme: storedMode })
  startColorModeSync(store)
  renderPanel(container, store)
}

if (__DEV__) void import('./app/live-reload')
