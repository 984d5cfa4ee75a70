import { holdEarlySubmits } from './early-submit'
import { TOKEN_KEY } from '../session/token'
import { canonicalSignInHash, LOAD_ATTRIBUTE, loadKind } from './sign-in-load'

/**
 * Runs in the boot script in <head>, before the first paint: says on <html> whether this load
 * shows the prerendered sign-in form (app.css hides it otherwise, so a signed-in person or another
 * route never sees it), and holds a submit made before the app is there.
 */
export function markLoadKind(): void {
  holdEarlySubmits()
  let stored: string | null = null
  try {
    stored = window.localStorage.getItem(TOKEN_KEY)
  } catch {
    // Storage that throws is "nobody signed in", as in session/token.ts.
  }
  const kind = loadKind(window.location.hash, stored)
  if (kind === 'sign-in') {
    const hash = canonicalSignInHash(window.location.hash)
    if (hash !== window.location.hash) {
      window.history.replaceState(
        window.history.state,
        '',
        window.location.pathname + window.location.search + hash,
      )
    }
  }
  document.documentElement.setAttribute(LOAD_ATTRIBUTE, kind)
}
