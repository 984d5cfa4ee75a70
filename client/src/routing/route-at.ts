import type { PanelRoute } from './route'

/*
 * Apart from route.ts, which every cold load carries: only the layout matches paths to routes.
 */

/** Whether a route pattern (`/equipe/:id`) matches a path, segment by segment. */
function matches(pattern: string, pathname: string): boolean {
  const want = pattern.split('/')
  const got = pathname.split('/')
  return (
    want.length === got.length &&
    want.every((segment, index) =>
      segment.startsWith(':') ? got[index] !== '' : segment === got[index],
    )
  )
}

/** The route whose pattern matches a path, if any. */
export function routeAt<T extends PanelRoute>(
  routes: readonly T[],
  pathname: string,
): T | undefined {
  return routes.find((route) => matches(route.path, pathname))
}
