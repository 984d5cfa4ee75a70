import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { paths, PUBLIC_PATHS } from '../routing/paths'
import { isInnerRoute } from '../routing/route'
import { ROUTES } from './routes'

describe('the route objects', () => {
  it('declare each path once', () => {
    const declared = ROUTES.map((route) => route.path)
    assert.deepEqual(declared, [...new Set(declared)])
  })

  it('make public exactly the pages the guard lets through (and `/`, the login page)', () => {
    const open = ROUTES.filter((route) => !isInnerRoute(route)).map((route) => route.path)
    assert.deepEqual([paths.home, ...open].sort(), [...PUBLIC_PATHS].sort())
  })

  it('name a parent that is itself a route', () => {
    for (const route of ROUTES) {
      if (isInnerRoute(route) && route.parent) assert.ok(ROUTES.includes(route.parent))
    }
  })
})
