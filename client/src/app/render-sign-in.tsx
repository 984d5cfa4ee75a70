/**
 * Build time, in Node (scripts/build/prerender.ts bundles and runs this): the sign-in page as
 * React renders it in the browser, for index.html. The same routes, the same tree
 * (panel-tree.tsx), the initial app state and nobody signed in; only the router is a static one
 * at #/login instead of the browser's hash router.
 */
import { renderToReadableStream, renderToStaticMarkup } from 'react-dom/server'
import { createPath, Router, type Navigator } from 'react-router-dom'
import { PageSpinner } from '../ui/page-spinner'
import { panelTree } from './panel-tree'
import { paths } from '../routing/paths'
import { PanelRoutes } from './router'
import { createAppStore } from '../state/store'
import type { PrerenderedSignIn } from '../prerender/prerender-markup'

const cannotNavigate = () => {
  throw new Error('the prerendered sign-in page navigated while rendering')
}

/** Links as the browser's hash router writes them (`#/register`), not as bare paths. */
const navigator: Navigator = {
  createHref: (to) => `#${typeof to === 'string' ? to : createPath(to)}`,
  push: cannotNavigate,
  replace: cannotNavigate,
  go: cannotNavigate,
}

export async function renderSignInPage(): Promise<PrerenderedSignIn> {
  const router = (
    <Router location={paths.login} navigator={navigator} static>
      <PanelRoutes />
    </Router>
  )
  const errors: unknown[] = []
  // A stream that has waited for everything (allReady): the page behind React.lazy and its
  // Suspense boundary is in the HTML, not its fallback.
  const stream = await renderToReadableStream(panelTree(createAppStore(), { router }), {
    onError: (error) => void errors.push(error),
  })
  await stream.allReady
  const page = await new Response(stream).text()
  if (errors.length > 0)
    throw new Error(`React could not render the login page: ${String(errors[0])}`)
  // What the routes would do elsewhere (a redirect, the spinner) is not the sign-in form.
  if (!page.includes('type="submit"') || !page.includes('type="password"')) {
    throw new Error('the prerendered page at #/login is not the sign-in form')
  }
  return { page, spinner: renderToStaticMarkup(<PageSpinner />) }
}
