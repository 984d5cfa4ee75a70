/**
 * The production build of the client and the server into dist/.
 *
 *   dist/index.html             the page, naming this build's hashed files, with the sign-in
 *                               page prerendered into it (prerender.ts) (+ .br/.gz)
 *   dist/assets/*               content-hashed JS chunks, CSS, images (+ .br/.gz for text ≥ 1 KB)
 *   dist/ metafilePath          esbuild's metafile of the client, named in scripts/paths.ts
 *   dist/server/main.js         the compiled server: `node dist/server/main.js`
 *   dist/server/new-database.sqlite   the empty database a first start copies (server/db/new-database.ts)
 */
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises'
import { realpathSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { build, type Metafile } from 'esbuild'
import { NEW_DATABASE_FILE, writeNewDatabase } from '../../server/db/new-database'
import { clientSourcePlugin } from './client-source'
import { coldPathSharedInputs, commonChunkPlugin, entryModules } from './common-chunk'
import { precompress } from './compress'
import { criticalStylesheet, signInSources } from './critical-css'
import { purgedStylesheetPlugin } from './purge-css'
import { COLOR_MODE_ENTRY, MAIN_ENTRY, routeBytes, ROUTES } from './route-bytes'
import { checkBudgets } from './budgets'
import { clientOptions, colorModeBootOptions, serverOptions, version } from './esbuild-options'
import { dropPropTypes } from './drop-prop-types'
import { missingOutputs } from './expected-outputs'
import { renderIndexHtml } from './index-html'
import { prerenderSignIn } from './prerender'
import {
  lazyModules,
  moduleAt,
  publicPageModules,
  readRouteTable,
  ROUTE_TABLE_FILE,
  type RouteTable,
} from './route-table'
import { outputFor, staticClosure, stylesheetsFor, toUrl } from './metafile'
import { sizeTable } from './report'
import {
  assetsDir,
  buildInfoPath,
  clientDir,
  unpurgedStylesheetPath,
  distDir,
  metafilePath,
  root,
  serverOut,
} from '../paths'

/**
 * A file of node_modules as esbuild names it: by its real path, since esbuild follows symlinks
 * (a node_modules linked from another checkout, pnpm's store). The plugins below compare these
 * paths with esbuild's; compared with the linked path they matched nothing, and the build went
 * out with the whole CoreUI stylesheet and barrel (#/dashboard 13 KB over its budget).
 */
const dependencyFile = (...parts: string[]) => realpathSync(join(root, 'node_modules', ...parts))

const COREUI_INDEX = dependencyFile('@coreui', 'react', 'dist', 'esm', 'index.js')
const ICONS_INDEX = dependencyFile('@coreui', 'icons', 'dist', 'esm', 'free', 'index.js')
const COREUI_CSS = dependencyFile('@coreui', 'coreui', 'dist', 'css', 'coreui.min.css')

/**
 * The client in two passes (see common-chunk.ts): the first finds what the public pages' cold
 * loads share, the second pins all of it into one chunk and writes the files.
 */
async function buildClient(routeTable: RouteTable) {
  const options = clientOptions('production')
  const source = { workingDir: root, coreuiIndex: COREUI_INDEX, iconsIndex: ICONS_INDEX }
  const first = await build({
    ...options,
    write: false,
    plugins: [clientSourcePlugin(source), dropPropTypes],
  })
  const { metafile } = first
  if (!metafile) throw new Error('esbuild gave no metafile')
  // The stylesheet before purging, outside the public folder: e2e/css-purge.spec.ts renders
  // every page with it too and compares.
  const fullStylesheet = first.outputFiles.find((file) => file.path.endsWith('.css'))
  if (!fullStylesheet) throw new Error('the first pass made no stylesheet')
  await writeFile(unpurgedStylesheetPath, fullStylesheet.contents)
  const entries = entryModules(metafile)
  const publicPages = publicPageModules(routeTable)
  const sharedInputs = coldPathSharedInputs(metafile, MAIN_ENTRY, publicPages)
  // What renders: the app's sources and the CoreUI components they use (see purge-css.ts).
  const contentFiles = Object.keys(metafile.inputs)
    .filter(
      (input) =>
        /^client\/|@coreui\/(react|icons-react)\//.test(input) &&
        /\.(tsx?|jsx?|html|css)$/.test(input),
    )
    .map((input) => join(root, input))
  return build({
    ...options,
    plugins: [
      clientSourcePlugin({ ...source, entries }),
      dropPropTypes,
      commonChunkPlugin({ workingDir: root, sharedInputs }),
      purgedStylesheetPlugin({
        stylesheet: COREUI_CSS,
        contentFiles: [...contentFiles, join(clientDir, 'index.html')],
      }),
    ],
  })
}

/**
 * The favicon as a data: URL in the page (300 bytes of SVG): no request of its own on a cold
 * load, and nothing to cache or revalidate. The CSP allows data: images.
 */
async function inlineFavicon(source: string): Promise<string> {
  const svg = (await readFile(source, 'utf8')).trim()
  return `data:image/svg+xml,${encodeURIComponent(svg)}`
}

function mergeMetafiles(...metafiles: Metafile[]): Metafile {
  return metafiles.reduce<Metafile>(
    (merged, metafile) => ({
      inputs: { ...merged.inputs, ...metafile.inputs },
      outputs: { ...merged.outputs, ...metafile.outputs },
    }),
    { inputs: {}, outputs: {} },
  )
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true })
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
}

export interface BuildOptions {
  /**
   * Put the sign-in page into index.html (the default). Off (`npm run build -- --no-prerender`)
   * only to measure what it is worth: scripts/bench/prerender-lighthouse.ts.
   */
  prerender?: boolean
}

export async function buildProduction({ prerender = true }: BuildOptions = {}): Promise<void> {
  const started = performance.now()
  const newDatabase = join(dirname(serverOut), NEW_DATABASE_FILE)
  await rm(distDir, { recursive: true, force: true })
  await mkdir(assetsDir, { recursive: true })

  // The route objects say which modules are pages, public or not (route-table.ts).
  const routeTable = await readRouteTable()
  await writeFile(join(distDir, ROUTE_TABLE_FILE), JSON.stringify(routeTable))
  const [client, colorMode, , prerendered] = await Promise.all([
    buildClient(routeTable),
    build(colorModeBootOptions('production')),
    build(serverOptions()).then(() => writeNewDatabase(newDatabase)),
    prerender ? prerenderSignIn() : undefined,
  ])
  const metafile = mergeMetafiles(client.metafile!, colorMode.metafile!)
  await writeFile(metafilePath, JSON.stringify(metafile))

  const entry = outputFor(metafile, MAIN_ENTRY)
  const entryClosure = staticClosure(metafile, entry)
  const template = await readFile(join(clientDir, 'index.html'), 'utf8')
  const stylesheets = stylesheetsFor(metafile, [entry])
  const inlineStyle =
    prerendered &&
    (await criticalStylesheet(
      (await Promise.all(stylesheets.map((css) => readFile(join(root, css), 'utf8')))).join('\n'),
      {
        root,
        sources: signInSources(metafile, {
          entry: MAIN_ENTRY,
          loginPage: moduleAt(routeTable, '/login'),
          colorModeBoot: COLOR_MODE_ENTRY,
        }),
        markup: [template, prerendered.page, prerendered.spinner],
      },
    ))
  const colorModeScript = outputFor(metafile, COLOR_MODE_ENTRY)
  // esbuild ends the file with a newline and no source map comment (colorModeBootOptions).
  const inlineColorModeScript =
    prerendered && (await readFile(join(root, colorModeScript), 'utf8')).trimEnd()
  const html = renderIndexHtml(template, {
    colorModeScript: toUrl(colorModeScript),
    ...(inlineColorModeScript ? { inlineColorModeScript } : {}),
    stylesheets: stylesheets.map(toUrl),
    entryScript: toUrl(entry),
    modulePreloads: entryClosure.slice(1).map(toUrl),
    favicon: await inlineFavicon(join(clientDir, 'public', 'favicon.svg')),
    prerendered,
    ...(inlineStyle ? { inlineStyle } : {}),
  })
  await writeFile(join(distDir, 'index.html'), html)

  const missing = missingOutputs(metafile, lazyModules(routeTable), [
    join(distDir, 'index.html'),
    join(root, entry),
    serverOut,
    newDatabase,
    ...stylesheetsFor(metafile, [entry]).map((css) => join(root, css)),
  ])
  if (missing.length > 0) {
    throw new Error(
      `the build is incomplete; missing:\n${missing.map((m) => `  - ${m}`).join('\n')}`,
    )
  }

  const publicFiles = [join(distDir, 'index.html'), ...(await listFiles(assetsDir))]
  const sizes = await precompress(publicFiles)
  console.log(sizeTable(sizes, distDir))

  const budgets = checkBudgets(
    await Promise.all(ROUTES.map((route) => routeBytes(metafile, route, distDir))),
  )
  console.log(`\n${budgets.table}`)
  // The budgets are the shipped page's. A build without prerendering exists only to be measured
  // against it (it links the whole stylesheet: one request and ~8 KB more on #/login).
  if (!prerender) {
    console.log('budgets not enforced: a build without prerendering is for comparison only')
  } else if (budgets.exceeded.length > 0) {
    throw new Error(
      `over the size budget (scripts/build/budgets.ts):\n${budgets.exceeded.map((line) => `  - ${line}`).join('\n')}`,
    )
  }
  // Written last: its presence means a complete build (npm start compares its time to the sources').
  await writeFile(
    buildInfoPath,
    JSON.stringify({ version, builtAt: new Date().toISOString(), prerender }),
  )
  console.log(`\nbuilt dist/ in ${Math.round(performance.now() - started)} ms`)
}
