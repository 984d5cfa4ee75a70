import { formatTable, kb } from './report'
import type { Route, RouteBytes } from './route-bytes'

/**
 * What a cold load of a route may cost: the brotli bytes a browser receives for the page, its
 * scripts and its stylesheet (1 KB = 1024 bytes), and the number of those files. `npm run build`
 * (and so `npm test`) fails when a change goes over; `npm run bench` measures the same routes in
 * a real browser.
 */
export const BUDGETS: Record<Route, { brotli: number; requests?: number }> = {
  // 85 KB of bodies and ~3 KB of headers (the page's ~800 B, each asset's ~430 B): the cold
  // login stays within 90,000 bytes on the wire, as `npm run bench -- --only browser` measures.
  '#/login': { brotli: 85 * 1024, requests: 6 },
  '#/dashboard': { brotli: 110 * 1024 },
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
      exceeded.push(`${route.route}: ${kb(route.servedBrotli)} over its ${kb(budget.brotli)}`)
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
