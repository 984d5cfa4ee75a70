import '@coreui/coreui/dist/css/coreui.min.css'
import './app/app.css'
import { mountApp } from './app/mount'
import { reloadOnceOnChunkError } from './app/reload-on-chunk-error'
import { createAppStore } from './app/store'
import { DEFAULT_COLOR_MODE, readStoredColorMode } from './theme/color-mode'
import { startColorModeSync } from './theme/color-mode-sync'

declare const __DEV__: boolean

reloadOnceOnChunkError()

const store = createAppStore({ theme: readStoredColorMode() ?? DEFAULT_COLOR_MODE })
startColorModeSync(store)

const container = document.getElementById('root')
if (!container) throw new Error('index.html has no #root element')

mountApp(container, store)

if (__DEV__) void import('./lib/live-reload')
