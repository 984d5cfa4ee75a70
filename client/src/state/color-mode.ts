/**
 * Colour modes, shared by the boot script in <head> and by the app. The stored preference uses
 * the key of CoreUI's `useColorModes` convention, so it reads like any CoreUI admin template's.
 */
export const COLOR_MODES = ['light', 'dark', 'auto'] as const
export type ColorMode = (typeof COLOR_MODES)[number]
export type ResolvedColorMode = Exclude<ColorMode, 'auto'>

export const COLOR_MODE_KEY = 'coreui-free-react-admin-template-theme'
/** docs/architecture.md, "Fixed contracts": the default theme is light (not the system's), until someone chooses. */
export const DEFAULT_COLOR_MODE: ColorMode = 'light'
export const DARK_SCHEME_QUERY = '(prefers-color-scheme: dark)'

export function isColorMode(value: unknown): value is ColorMode {
  return typeof value === 'string' && (COLOR_MODES as readonly string[]).includes(value)
}

export function resolveColorMode(mode: ColorMode, systemPrefersDark: boolean): ResolvedColorMode {
  if (mode === 'auto') return systemPrefersDark ? 'dark' : 'light'
  return mode
}

/** The stored choice, if it is one of the modes; a tampered value is as good as none. */
export function readStoredColorMode(): ColorMode | null {
  try {
    const stored = window.localStorage.getItem(COLOR_MODE_KEY)
    return isColorMode(stored) ? stored : null
  } catch {
    return null
  }
}

export function storeColorMode(mode: ColorMode): void {
  try {
    window.localStorage.setItem(COLOR_MODE_KEY, mode)
  } catch {
    // Without storage the choice still applies to this page; it just is not remembered.
  }
}

export function systemPrefersDark(): boolean {
  return window.matchMedia(DARK_SCHEME_QUERY).matches
}

/** Puts the mode on <html>, where CoreUI's stylesheet reads it. */
export function applyColorMode(mode: ColorMode): void {
  const resolved = resolveColorMode(mode, systemPrefersDark())
  const root = document.documentElement
  if (root.dataset.coreuiTheme === resolved) return
  root.dataset.coreuiTheme = resolved
  // CoreUI's own hook announces the change this way; its components may listen for it.
  root.dispatchEvent(new Event('ColorSchemeChange'))
}
