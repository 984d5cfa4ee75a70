/**
 * Whether this document has moved between the panel's own pages. The browser's history.length
 * cannot tell: it counts the pages of the tab before the panel was opened (even about:blank), and
 * going back to those leaves the app.
 */
let moves = 0

interface ObservableRouter<Location> {
  state: { location: Location; historyAction: string }
  subscribe(listener: (state: { location: Location; historyAction: string }) => void): unknown
}

export function trackInAppHistory<Location>(router: ObservableRouter<Location>): void {
  let current = router.state.location
  router.subscribe((state) => {
    if (state.location === current) return
    current = state.location
    // A replace (a redirect, the guard) leaves no page behind it to go back to.
    if (state.historyAction !== 'REPLACE') moves += 1
  })
}

/** Whether the browser's Back goes to a page of the panel, not out of it. */
export function hasPreviousInAppPage(): boolean {
  return moves > 0
}
