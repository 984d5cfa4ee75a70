/**
 * The suites whose outcome depends on the browser engine: what the page does with its own
 * markup, styles, storage and navigation. `npm test` runs them in Firefox beside every suite in
 * Chromium; the rest (mails, audit words, the staff API's rules seen through a screen) would
 * only repeat in Firefox what the server decides, at 2.5 times Chromium's time here, which CI's
 * time does not allow (docs/testing.md). PAINEL_FIREFOX_FULL=1 runs every suite in Firefox.
 */
export const ENGINE_SENSITIVE_SPECS = [
  // Hash routes and the public pages (the guard's rules are the app's own script: the smoke set
  // runs them in Firefox and WebKit; access-guard.spec.ts in Chromium).
  'public-pages',
  // The prerendered form, its inline boot script and style under a hash-based CSP, hydration
  // (the journeys of sign-in.spec.ts are the server's; the smoke set signs in and out).
  'prerendered-sign-in',
  'sign-in-style',
  'serving',
  // Cookies (SameSite=Strict on the provider link's) and redirects through a real provider.
  'single-sign-on',
  // Layout at a phone's and a desktop's width, where lines break. (Colour modes are the smoke
  // set's in Firefox and WebKit: auto in a dark and a light system, a change of the system's
  // without a reload, the theme parameter. color-modes.spec.ts adds the switcher's clicks and
  // the redux state behind it, the app's own script: in Firefox it took 195 s of CI's time.)
  'layout',
  'staff-whole-emails',
  'whole-words',
  'sign-in-contrast',
  // Focus, dialogs, form controls and their validation messages.
  'dialog-focus',
  'focus-visible',
  'forms-in-portuguese',
  'form-feedback',
] as const

/** A testMatch for Playwright: the files above. */
export const engineSensitiveFiles = new RegExp(
  `(^|/)(${ENGINE_SENSITIVE_SPECS.join('|')})\\.spec\\.ts$`,
)

/**
 * A test of an engine-sensitive suite whose outcome is nonetheless the server's (which account a
 * provider's sign-in links, who must approve it, what the log says) or the app's own rules (where
 * a signed-in person's #/login goes, which screens an admin's menu has): tagged, it runs in
 * Chromium only, unless PAINEL_FIREFOX_FULL=1. In single-sign-on.spec.ts the redirects, the
 * link's SameSite=Strict cookie, a cancel at the provider and the prerendered button stay in
 * Firefox; the six journeys tagged took 80 s of Firefox's time in CI for nothing the engine
 * decides. The app's rules tagged in public-pages, layout and form-feedback took 52 s more (the
 * smoke set still runs the guard in Firefox and WebKit).
 */
export const SERVER_DECIDES = '@server-decides'
