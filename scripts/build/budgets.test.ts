import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { BUDGETS, checkBudgets } from './budgets'
import { kb } from './report'
import type { RouteBytes } from './route-bytes'

const route = (name: RouteBytes['route'], requests: number, servedBrotli: number): RouteBytes => ({
  route: name,
  requests,
  raw: 0,
  gzip: 0,
  // Below what is served (files under 1 KB go out raw): the budget must count what is served.
  brotli: servedBrotli - 2048,
  servedBrotli,
  files: [],
})

describe('checkBudgets', () => {
  it('passes routes within their budgets and prints them', () => {
    const report = checkBudgets([
      route('#/login', 4, 84 * 1024),
      route('#/dashboard', 9, 105 * 1024),
    ])
    assert.deepEqual(report.exceeded, [])
    assert.match(report.table, /#\/login\s+4 \/ 4\s+84\.0 KB \/ 84\.8 KB\s+ok/)
  })

  it('names every budget a route goes over', () => {
    // From the budget itself, so that raising it (budgets.ts says why each time) keeps this test true.
    const dashboard = BUDGETS['#/dashboard'].brotli
    const report = checkBudgets([
      route('#/login', 5, 86_847),
      route('#/dashboard', 20, dashboard + 1024),
    ])
    assert.deepEqual(report.exceeded, [
      '#/login: 84.8 KB over its 84.8 KB (1 B over)',
      '#/login: 5 requests over its 4',
      `#/dashboard: ${kb(dashboard + 1024)} over its ${kb(dashboard)} (1024 B over)`,
    ])
    assert.match(report.table, /OVER/)
  })
})
