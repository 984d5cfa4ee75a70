/**
 * What the build writes into index.html around the prerendered sign-in page, and what the boot
 * script, the app and app.css look for. Imports nothing: the build (Node, no DOM) reads it too.
 */

/** On `#root` when index.html holds the prerendered sign-in page. */
export const PRERENDERED_ATTRIBUTE = 'data-prerendered'
export const PRERENDERED_VALUE = 'sign-in'

/** The spinner beside `#root` that a load other than a sign-in shows until React's first commit. */
export const BOOT_SPINNER_CLASS = 'painel-boot-spinner'

export interface PrerenderedSignIn {
  /** What React renders into #root at `#/login`, to be hydrated. */
  page: string
  /** The page spinner, shown instead on every other load until the app renders. */
  spinner: string
}

/**
 * With the sign-in page prerendered, index.html names the app's scripts in this <meta> (the
 * entry first, then the modules it imports) instead of loading them: the boot script fetches and
 * runs them once the page is painted (start-after-paint.ts).
 */
export const APP_SCRIPTS_META = 'painel-app'

/**
 * With the sign-in page prerendered, its own CSS is inline in index.html and the app's whole
 * stylesheet is not linked: this <meta> names it, and the app fetches it before it shows any
 * other page (app-stylesheet.ts). A page without this <meta> links the stylesheet itself.
 */
export const APP_STYLESHEET_META = 'painel-stylesheet'
