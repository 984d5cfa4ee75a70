/**
 * The panel's routes as the build sees them: for every route object of client/src/app/routes.ts,
 * its path, who may open it and the module its loader imports (the page's chunk), with the
 * layout's and the inner fallback's. Read by bundling that list with esbuild, every dynamic
 * import replaced by the name of the module it would load, and running it: a new route object
 * is found without any file-name convention, and the build needs no edit for it.
 */
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join, relative, resolve } from 'node:path'
import { build, type Plugin } from 'esbuild'
import { clientSrc, root } from '../paths'

export interface RouteModule {
  path: string
  access: 'public' | 'signed-out' | 'signed-in'
  /** The page's module, relative to the repository root (as esbuild's metafile names it). */
  module: string
}

export interface RouteTable {
  routes: RouteModule[]
  /** The signed-in layout's module: an inner screen's cold load needs it too. */
  layout: string
  /** The layout's content at an unknown address. */
  fallback: string
}

export const ROUTE_TABLE_FILE = 'route-table.json'

const MODULE_NAME = 'painel-route-module'

function sourceFile(resolveDir: string, specifier: string): string {
  const base = resolve(resolveDir, specifier)
  const found = [base, `${base}.tsx`, `${base}.ts`].find((path) => existsSync(path))
  if (!found) throw new Error(`a route loads ${specifier}, which is not in ${resolveDir}`)
  return found
}

/** Every `import('./x')` becomes a module whose one export names the file it stood for. */
const moduleNames: Plugin = {
  name: MODULE_NAME,
  setup(pass) {
    pass.onResolve({ filter: /.*/ }, (args) =>
      args.kind === 'dynamic-import'
        ? { path: sourceFile(args.resolveDir, args.path), namespace: MODULE_NAME }
        : undefined,
    )
    pass.onLoad({ filter: /.*/, namespace: MODULE_NAME }, (args) => ({
      contents: `export const module = ${JSON.stringify(relative(root, args.path).split('\\').join('/'))}`,
      loader: 'js',
    }))
  },
}

type Loaded = Promise<{ module: string }>
interface RoutesModule {
  ROUTES: { path: string; access: RouteModule['access']; load: () => Loaded }[]
  loadLayout: () => Loaded
  loadInnerFallback: () => Loaded
}

export async function readRouteTable(): Promise<RouteTable> {
  const result = await build({
    absWorkingDir: root,
    entryPoints: [join(clientSrc, 'app', 'routes.ts')],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'neutral',
    // Route objects import no page and no package; a type import is all they may use of React.
    external: ['react'],
    plugins: [moduleNames],
    logLevel: 'warning',
  })
  const [bundle] = result.outputFiles
  if (!bundle) throw new Error('the route list bundled to nothing')
  const routes = (await import(
    `data:text/javascript;base64,${Buffer.from(bundle.contents).toString('base64')}`
  )) as RoutesModule
  return {
    routes: await Promise.all(
      routes.ROUTES.map(async (route) => ({
        path: route.path,
        access: route.access,
        module: (await route.load()).module,
      })),
    ),
    layout: (await routes.loadLayout()).module,
    fallback: (await routes.loadInnerFallback()).module,
  }
}

/** The table a build wrote beside its metafile (benchmarks read it). */
export async function readBuiltRouteTable(distDir: string): Promise<RouteTable> {
  return JSON.parse(await readFile(join(distDir, ROUTE_TABLE_FILE), 'utf8')) as RouteTable
}

/** Every module the router loads lazily: each must come out of the build as a chunk of its own. */
export function lazyModules(table: RouteTable): string[] {
  return [...table.routes.map((route) => route.module), table.layout, table.fallback]
}

/** The modules of the pages anyone can open without a session. */
export function publicPageModules(table: RouteTable): string[] {
  return table.routes
    .filter((route) => route.access === 'public' || route.access === 'signed-out')
    .map((route) => route.module)
}

/** The module of the page at `path`; an error if no route object declares it. */
export function moduleAt(table: RouteTable, path: string): string {
  const route = table.routes.find((candidate) => candidate.path === path)
  if (!route) throw new Error(`no route object declares ${path} (client/src/app/routes.ts)`)
  return route.module
}
