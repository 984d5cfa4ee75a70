/**
 * The sign-in page rendered at build time (client/src/app/render-sign-in.tsx, React's
 * server renderer) for index.html: the form is painted from the page's first bytes, and the app
 * hydrates it. The renderer is bundled like the client (the browser builds of React and the
 * router, production mode) and run in this process from memory.
 */
import { join } from 'node:path'
import { build } from 'esbuild'
import type { PrerenderedSignIn } from '../../client/src/prerender/prerender-markup'
import { clientOptions } from './esbuild-options'
import { clientSrc } from '../paths'

export async function prerenderSignIn(): Promise<PrerenderedSignIn> {
  const options = clientOptions('production')
  const result = await build({
    absWorkingDir: options.absWorkingDir,
    entryPoints: [join(clientSrc, 'app', 'render-sign-in.tsx')],
    bundle: true,
    write: false,
    // One file, imported from a data: URL: no chunks, nothing left to resolve at run time.
    splitting: false,
    format: 'esm',
    platform: 'browser',
    target: 'node20',
    jsx: options.jsx,
    loader: { ...options.loader, '.svg': 'dataurl', '.png': 'dataurl' },
    define: options.define,
    outfile: 'render-sign-in.js',
    logLevel: 'warning',
  })
  const [bundle] = result.outputFiles
  if (!bundle) throw new Error('the prerender bundle is empty')
  const module = (await import(
    `data:text/javascript;base64,${Buffer.from(bundle.contents).toString('base64')}`
  )) as { renderSignInPage: () => Promise<PrerenderedSignIn> }
  return module.renderSignInPage()
}
