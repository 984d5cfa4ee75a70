import type { AppStore } from '../state/store'
import {
  applyColorMode,
  COLOR_MODE_KEY,
  DARK_SCHEME_QUERY,
  DEFAULT_COLOR_MODE,
  readStoredColorMode,
  storeColorMode,
  type ColorMode,
} from '../state/color-mode'

/**
 * A choice of colour mode (the switcher, the theme URL parameter): stored, then put in the redux
 * `theme` field, from where startColorModeSync applies it. Stored even when it equals the current
 * mode: choosing Claro on a panel that is light by default still records the choice.
 */
export function chooseColorMode(store: Pick<AppStore, 'dispatch'>, mode: ColorMode): void {
  storeColorMode(mode)
  store.dispatch({ type: 'set', theme: mode })
}

/**
 * Keeps <html data-coreui-theme> in step with the redux `theme` field:
 * - a change of the field applies at once;
 * - with `auto`, a change of the system's preference re-applies it (light/dark stay put);
 * - a choice made in another tab (storage event) is followed here.
 */
export function startColorModeSync(store: AppStore): () => void {
  let applied = store.getState().theme
  applyColorMode(applied)

  const unsubscribe = store.subscribe(() => {
    const { theme } = store.getState()
    if (theme === applied) return
    applied = theme
    applyColorMode(theme)
  })

  const systemScheme = window.matchMedia(DARK_SCHEME_QUERY)
  const onSystemChange = () => {
    if (store.getState().theme === 'auto') applyColorMode('auto')
  }
  systemScheme.addEventListener('change', onSystemChange)

  const onStorage = (event: StorageEvent) => {
    if (event.key !== COLOR_MODE_KEY && event.key !== null) return
    store.dispatch({ type: 'set', theme: readStoredColorMode() ?? DEFAULT_COLOR_MODE })
  }
  window.addEventListener('storage', onStorage)

  return () => {
    unsubscribe()
    systemScheme.removeEventListener('change', onSystemChange)
    window.removeEventListener('storage', onStorage)
  }
}
