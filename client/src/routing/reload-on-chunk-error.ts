import { PRELOAD_ERROR_EVENT } from './chunk-loading'

/** When the page last reloaded itself for a failed chunk (sessionStorage: this tab only). */
const RELOADED_AT_KEY = 'painel:chunk-reload-at'
/** Within this time of a reload, a second failure is not retried: it shows the error screen. */
const NO_SECOND_RELOAD_MS = 60_000

/**
 * The panel's own `preloadError` handler. A chunk that fails to load usually means a new
 * deployment replaced the hashed files this page names, so reloading once fetches the new page
 * and its new chunks. If the chunk fails again soon after, reloading will not help: the error
 * goes on to the route's error screen instead of looping.
 */
export function reloadOnceOnChunkError(): void {
  window.addEventListener(PRELOAD_ERROR_EVENT, (event) => {
    try {
      const reloadedAt = Number(window.sessionStorage.getItem(RELOADED_AT_KEY))
      if (Number.isFinite(reloadedAt) && Date.now() - reloadedAt < NO_SECOND_RELOAD_MS) return
      window.sessionStorage.setItem(RELOADED_AT_KEY, String(Date.now()))
    } catch {
      // Without sessionStorage there is no guard against a loop, so no automatic reload.
      return
    }
    event.preventDefault()
    window.location.reload()
  })
}
