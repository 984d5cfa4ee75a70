import { startTransition } from 'react'
import { createRoot, hydrateRoot } from 'react-dom/client'
import { sendHeldSubmit } from '../prerender/early-submit'
import {
  BOOT_SPINNER_CLASS,
  PRERENDERED_ATTRIBUTE,
  PRERENDERED_VALUE,
} from '../prerender/prerender-markup'
import { hashPath, isSignInRoute } from '../prerender/sign-in-load'
import { readToken } from '../session/token'
import { panelTree } from './panel-tree'
import { preloadSignInPage } from './router'
import type { AppStore } from '../state/store'

/** Runs its callback once: StrictMode runs layout effects twice in development. */
function once(callback: () => void): () => void {
  let done = false
  return () => {
    if (done) return
    done = true
    callback()
  }
}

/**
 * Whether this load can take over the sign-in form the build put into index.html: it is there,
 * and the page is still the login page for someone not signed in (the URL may have changed
 * since the boot script looked: a link followed before the app arrived). `#/` is not: the boot
 * script has made it `#/login`; if it has not, the router would first render a redirect.
 */
export function canHydrateSignIn(container: Element): boolean {
  if (container.getAttribute(PRERENDERED_ATTRIBUTE) !== PRERENDERED_VALUE) return false
  const path = hashPath(window.location.hash)
  return readToken() === null && isSignInRoute(window.location.hash) && path !== '' && path !== '/'
}

/** The prerendered page is React's from now on: what hid or stood in for it can go. */
function forgetPrerender(container: Element): void {
  container.removeAttribute(PRERENDERED_ATTRIBUTE)
  document.querySelector(`.${BOOT_SPINNER_CLASS}`)?.remove()
}

/**
 * Hydrates the prerendered sign-in page: once the login chunk is there (so that the first render
 * is the page, not its spinner), React adopts the HTML as it is (values typed into it stay). When
 * the page itself is hydrated (inside its Suspense boundary, a pass after the root's: see
 * page-committed.tsx), `onHydrated` runs, then a submit held before the app arrived is sent, all
 * before the next paint.
 *
 * A module of its own, not inline in main.tsx: the build's common chunk takes the entry's own
 * modules and the packages they use (common-chunk.ts), and main.tsx, an entry point, is not one of
 * them; here react-dom joins that chunk instead of making a seventh request of the login page.
 */
export async function hydratePanel(
  container: Element,
  store: AppStore,
  onHydrated: () => void,
): Promise<void> {
  // A chunk that fails is the route's to report (its preloadError, its error screen), as without
  // prerendering: hydration goes ahead and the page's own render meets the failure.
  await preloadSignInPage().catch(() => {})
  const hydrating = hashPath(window.location.hash)
  // In a transition React hydrates in slices of a few milliseconds, yielding to the browser in
  // between (a transition renders concurrently; the default lane renders in one go): the login
  // page stays one long task shorter, which is what its total blocking time counts
  // (docs/performance.md). Typing and a held submit are unaffected: the page is the HTML until then.
  startTransition(() => {
    hydrateRoot(
      container,
      panelTree(store, {
        onPageCommit: once(() => {
          onHydrated()
          sendHeldSubmit(container)
          forgetPrerender(container)
        }),
      }),
      {
        // A route changed while the page hydrates (a link followed, a hash typed, in the moment the
        // app starts) makes React drop the login page's HTML and render the new route instead: what
        // should happen, not an error to report. Any other mismatch is reported as React would.
        onRecoverableError: (error) => {
          if (hashPath(window.location.hash) !== hydrating) return
          reportError(error)
        },
      },
    )
  })
}

/**
 * Renders the panel from nothing. The prerendered form (hidden by app.css on such a load) is
 * dropped first; the spinner beside it stays until React's first commit shows the router's own.
 */
export function renderPanel(container: Element, store: AppStore): void {
  container.replaceChildren()
  createRoot(container).render(
    panelTree(store, { onFirstCommit: once(() => forgetPrerender(container)) }),
  )
}
