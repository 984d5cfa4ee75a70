import { formatTable, kb } from './report'
import type { Route, RouteBytes } from './route-bytes'

/**
 * What a cold load of a route may cost: the brotli bytes a browser receives for the page, its
 * scripts and its stylesheet (1 KB = 1024 bytes), and the number of those files. `npm run build`
 * (and so `npm test`) fails when a change goes over; `npm run bench` measures the same routes in
 * a real browser.
 */
/**
 * The cold #/login's goal is 90,000 bytes on the wire in Chromium, headers included, as
 * `npm run bench -- --only browser` measures it. The six answers' headers come to 3,154 bytes
 * (`npm run bench -- --only browser` on 2026-11-23: 89,990 on the wire for 86,836 of bodies; the
 * page's ~900 B, each asset's ~440 B), so the bodies may have the rest: a build that passes this
 * budget meets the goal.
 * Since the sign-in page's CSS is inline (critical-css.ts), and its boot script too
 * (index-html.ts), there are four answers, not six, and the budget is looser than the goal by two
 * assets' headers; the four requests are held.
 *
 * The cold #/dashboard carries that inline CSS as well as the whole stylesheet (~7.6 KB more;
 * 110 KB before it, as `npm run build` prints the route's brotli bytes): only the first load after a deployment, since the page is revalidated (a
 * 304 without a body) and the stylesheet cached for a year afterwards.
 */
const LOGIN_WIRE_GOAL = 90_000
const LOGIN_HEADER_BYTES = 3_154

export const BUDGETS: Record<Route, { brotli: number; requests?: number }> = {
  '#/login': { brotli: LOGIN_WIRE_GOAL - LOGIN_HEADER_BYTES, requests: 4 },
  // The sizes below are #/dashboard's brotli bytes as `npm run build` printed them at the time.
  // 120 KB until Início showed everyone their own sign-ins, sessions and second factors, and the
  // lists shared one filter bar and a refresh that keeps rows offline (issue 34): 120.2 KB.
  // Roles and teams (issue 29): the audit words for roles and teams with the permissions'
  // descriptions (121.1 KB), then the viewer's access, the route objects of Papéis and Times
  // and their sidebar icons: 123.0 KB. With single sign-on's provider marks (a chunk the login
  // path shares) and the audit words of security notices, e-mail changes and anonymising
  // (issues 28, 30): 124.4 KB. Issue 43: a success notice takes the focus (client/src/ui/notice.tsx) and
  // the layout loads the heading's focus on a change of screen (its first path kept): 125.1 KB.
  // Provisionamento's route object, sidebar icon, permission and audit words (issue 46). The
  // review of issues 43 and 45: an e-mail address in running text breaks only between its parts
  // (client/src/ui/whole-words.tsx), confirm dialogs keep the focus while busy, the sidebar's
  // count badges in one component: 126.1 KB.
  '#/dashboard': { brotli: 126.5 * 1024 },
}

export interface BudgetReport {
  table: string
  exceeded: string[]
}

export function checkBudgets(routes: readonly RouteBytes[]): BudgetReport {
  const exceeded: string[] = []
  const rows = routes.map((route) => {
    const budget = BUDGETS[route.route]
    const overBytes = route.servedBrotli > budget.brotli
    const overRequests = budget.requests !== undefined && route.requests > budget.requests
    if (overBytes)
      exceeded.push(
        `${route.route}: ${kb(route.servedBrotli)} over its ${kb(budget.brotli)} (${route.servedBrotli - budget.brotli} B over)`,
      )
    if (overRequests)
      exceeded.push(`${route.route}: ${route.requests} requests over its ${budget.requests}`)
    return [
      route.route,
      `${route.requests}${budget.requests === undefined ? '' : ` / ${budget.requests}`}`,
      `${kb(route.servedBrotli)} / ${kb(budget.brotli)}`,
      overBytes || overRequests ? 'OVER' : 'ok',
    ]
  })
  return {
    table: formatTable(['cold load', 'requests / budget', 'brotli / budget', ''], rows),
    exceeded,
  }
}
