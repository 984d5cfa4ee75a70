/**
 * Runs in <head> as a classic blocking script, before the stylesheet applies and long before
 * React starts, so the first paint already has the right colours (no flash of light mode). The
 * build puts its text into the prerendered page (scripts/build/index-html.ts), and the server's
 * CSP allows exactly that text by its hash (server/http/security.ts): its own request was the
 * whole remaining wait before the first paint. A build without prerendering links it as a file.
 *
 * 1. A `theme` URL parameter naming a mode is stored like a choice in the switcher; any
 *    `theme` parameter is then taken out of the URL. A rejected value changes nothing.
 * 2. The stored mode (or the default) is put on <html>.
 * 3. Whether this load shows the sign-in form prerendered into index.html, decided before the
 *    first paint (prerender/boot.ts), after the theme parameter is out of the URL.
 * 4. With the page prerendered, the app itself, after the first paint (start-after-paint.ts).
 *    Last and on its own: nothing above that fails may keep the app from starting.
 */
import {
  applyColorMode,
  DEFAULT_COLOR_MODE,
  readStoredColorMode,
  storeColorMode,
} from '../state/color-mode'
import { readThemeParam, urlWithoutThemeParam } from './theme-param'
import { markLoadKind } from '../prerender/boot'
import { startAppAfterFirstPaint } from '../prerender/start-after-paint'

try {
  const param = readThemeParam(window.location.search, window.location.hash)
  if (param.mode) storeColorMode(param.mode)
  if (param.present)
    window.history.replaceState(window.history.state, '', urlWithoutThemeParam(window.location))
} catch {
  // A URL this code cannot make sense of must not stop the page: the stored mode still applies.
}

applyColorMode(readStoredColorMode() ?? DEFAULT_COLOR_MODE)

try {
  markLoadKind()
} catch {
  // Undecided, the load shows the prerendered form, which the app then hydrates or replaces.
}

startAppAfterFirstPaint()
