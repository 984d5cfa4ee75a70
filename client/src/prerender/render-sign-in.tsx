/**
 * Build time, in Node (scripts/build/prerender.ts bundles and runs this): the sign-in page as
 * React renders it in the browser, for index.html. The same route table, the same tree
 * (panel-tree.tsx), the initial app state and nobody signed in; only the history is in memory.
 */
import { renderToReadableStream, renderToStaticMarkup } from 'react-dom/server'
import { createMemoryRouter, createPath } from 'react-router-dom'
import { PageSpinner } from '../app/page-spinner'
import { panelTree } from '../app/panel-tree'
import { paths } from '../app/paths'
import { routes } from '../app/router'
import { routerReady } from '../app/router-ready'
import { createAppStore } from '../app/store'
import type { PrerenderedSignIn } from './prerender-markup'

export async function renderSignInPage(): Promise<PrerenderedSignIn> {
  const router = createMemoryRouter(routes, { initialEntries: [paths.login] })
  // Links as the browser's hash router writes them (`#/register`), not as bare paths.
  router.createHref = (location) => `#${createPath(location)}`
  await routerReady(router)
  if (router.state.errors) {
    throw new Error(`the login route failed: ${JSON.stringify(router.state.errors)}`)
  }
  if (router.state.location.pathname !== paths.login) {
    throw new Error(`the router went on to ${router.state.location.pathname}, not the login page`)
  }
  const errors: unknown[] = []
  // A stream that has waited for everything (allReady): a page behind a Suspense boundary is in
  // the HTML, not its fallback.
  const stream = await renderToReadableStream(panelTree(createAppStore(), router), {
    onError: (error) => void errors.push(error),
  })
  await stream.allReady
  const page = await new Response(stream).text()
  if (errors.length > 0)
    throw new Error(`React could not render the login page: ${String(errors[0])}`)
  router.dispose()
  return { page, spinner: renderToStaticMarkup(<PageSpinner />) }
}
