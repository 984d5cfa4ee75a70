import type { AppStore } from '../app/store'
import {
  applyColorMode,
  COLOR_MODE_KEY,
  DARK_SCHEME_QUERY,
  DEFAULT_COLOR_MODE,
  readStoredColorMode,
  storeColorMode,
} from './color-mode'

/**
 * Keeps <html data-coreui-theme>, the stored choice and the redux `theme` field in step.
 * The switcher only dispatches `set`; from there:
 * - a new choice is stored and applied at once;
 * - with `auto`, a change of the system's preference re-applies it (light/dark stay put);
 * - a choice made in another tab (storage event) is followed here.
 */
export function startColorModeSync(store: AppStore): () => void {
  let current = store.getState().theme
  applyColorMode(current)

  const unsubscribe = store.subscribe(() => {
    const { theme } = store.getState()
    if (theme === current) return
    current = theme
    storeColorMode(theme)
    applyColorMode(theme)
  })

  const systemScheme = window.matchMedia(DARK_SCHEME_QUERY)
  const onSystemChange = () => {
    if (store.getState().theme === 'auto') applyColorMode('auto')
  }
  systemScheme.addEventListener('change', onSystemChange)

  const onStorage = (event: StorageEvent) => {
    if (event.key !== COLOR_MODE_KEY && event.key !== null) return
    const theme = readStoredColorMode() ?? DEFAULT_COLOR_MODE
    current = theme
    applyColorMode(theme)
    store.dispatch({ type: 'set', theme })
  }
  window.addEventListener('storage', onStorage)

  return () => {
    unsubscribe()
    systemScheme.removeEventListener('change', onSystemChange)
    window.removeEventListener('storage', onStorage)
  }
}
