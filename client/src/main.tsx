import '@coreui/coreui/dist/css/coreui.min.css'
import './app/app.css'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './app/app'
import { reloadOnceOnChunkError } from './app/reload-on-chunk-error'
import { createPanelRouter } from './app/router'
import { createAppStore } from './app/store'
import { DEFAULT_COLOR_MODE, readStoredColorMode } from './theme/color-mode'
import { startColorModeSync } from './theme/color-mode-sync'

declare const __DEV__: boolean

reloadOnceOnChunkError()

const store = createAppStore({ theme: readStoredColorMode() ?? DEFAULT_COLOR_MODE })
startColorModeSync(store)

const container = document.getElementById('root')
if (!container) throw new Error('index.html has no #root element')

createRoot(container).render(
  <StrictMode>
    <App store={store} router={createPanelRouter()} />
  </StrictMode>,
)

if (__DEV__) void import('./lib/live-reload')
