import type { createPanelRouter } from './router'

type PanelRouter = ReturnType<typeof createPanelRouter>

/**
 * Resolves once the router has loaded the first route's lazy chunks: before that it renders its
 * spinner, and the page is not what the build rendered (the build waits for it too).
 */
export function routerReady(router: Pick<PanelRouter, 'state' | 'subscribe'>): Promise<void> {
  if (router.state.initialized) return Promise.resolve()
  return new Promise((resolve) => {
    const unsubscribe = router.subscribe((state) => {
      if (!state.initialized) return
      unsubscribe()
      resolve()
    })
  })
}
