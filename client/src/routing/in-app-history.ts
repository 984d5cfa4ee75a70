/**
 * Whether this document has moved between the panel's own pages. The browser's history.length
 * cannot tell: it counts the pages of the tab before the panel was opened (even about:blank), and
 * going back to those leaves the app.
 */
let moves = 0
let current: object | null = null

/**
 * Called with every location the router renders. Safe to call more than once for one location
 * (a re-render, StrictMode): only a new location object counts, and a replace (a redirect, the
 * guard) leaves no page behind it to go back to.
 */
export function noteInAppLocation(location: object, navigationType: string): void {
  if (location === current) return
  if (current !== null && navigationType !== 'REPLACE') moves += 1
  current = location
}

/** Whether the browser's Back goes to a page of the panel, not out of it. */
export function hasPreviousInAppPage(): boolean {
  return moves > 0
}
