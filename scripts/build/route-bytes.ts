/**
 * What a cold load of a route downloads, worked out from esbuild's metafile alone (no browser):
 * the page, the colour-mode boot script, the entry stylesheet, the entry script with its static
 * imports, and the route's lazily imported chunks with theirs. The build's size budgets
 * (budgets.ts) and `npm run bench` count with the same functions.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Metafile } from 'esbuild'
import { brotliBytes, gzipBytes } from './compress'
import { APP_STYLESHEET_META } from '../../client/src/prerender/prerender-markup'
import { outputFor, staticClosure, stylesheetsFor, toUrl } from './metafile'
import { readBuiltRouteTable, type RouteTable } from './route-table'

/** The two entry points of the client, as scripts/build/production.ts builds them. */
export const MAIN_ENTRY = 'client/src/main.tsx'
export const COLOR_MODE_ENTRY = 'client/src/theme/color-mode-boot.ts'
/** The cold loads the build measures (budgets.ts) and `npm run bench` times in a browser. */
export const ROUTES = ['#/login', '#/dashboard'] as const
export type Route = (typeof ROUTES)[number]

/** The lazily imported modules each measured route needs before it shows. */
export type RouteEntryPoints = Record<Route, readonly string[]>

/**
 * From the route objects (route-table.ts): a public page needs its own chunk; an inner screen
 * needs the layout's chunk and its own (client/src/app/router.tsx).
 */
export function routeEntryPoints(table: RouteTable): RouteEntryPoints {
  const entryPoints = (route: Route) => {
    const path = route.slice(1)
    const found = table.routes.find((candidate) => candidate.path === path)
    if (!found) throw new Error(`no route object declares ${path} (client/src/app/routes.ts)`)
    const inner = found.access === 'signed-in'
    return inner ? [table.layout, found.module] : [found.module]
  }
  const all = {} as Record<Route, readonly string[]>
  for (const route of ROUTES) all[route] = entryPoints(route)
  return all
}

export const INDEX_HTML = 'index.html'

/**
 * How index.html brings its CSS and its boot script: `linked`, the entry's stylesheet in a
 * <link> and the boot script by its URL; or `sign-in-inline`, the sign-in page's CSS in a
 * <style>, the boot script in a <script>, and the whole stylesheet fetched by the app for any
 * other page (production.ts, with the sign-in page prerendered).
 */
export type PageStyles = 'linked' | 'sign-in-inline'

export function pageStyles(indexHtml: string): PageStyles {
  return indexHtml.includes(`<meta name="${APP_STYLESHEET_META}"`) ? 'sign-in-inline' : 'linked'
}

/**
 * Every file a cold load of `route` fetches, as paths relative to dist/ (`index.html`,
 * `assets/…`), each once, roughly in the order the browser asks for them.
 */
export function routeFiles(
  metafile: Metafile,
  entryPoints: RouteEntryPoints,
  route: Route,
  styles: PageStyles = 'linked',
): string[] {
  const entry = outputFor(metafile, MAIN_ENTRY)
  const scripts = [
    ...staticClosure(metafile, entry),
    ...entryPoints[route].flatMap((module) => staticClosure(metafile, outputFor(metafile, module))),
  ]
  return [
    ...new Set([
      INDEX_HTML,
      ...(styles === 'sign-in-inline' ? [] : [toUrl(outputFor(metafile, COLOR_MODE_ENTRY))]),
      // Only the entry's stylesheet: the one index.html links or the app fetches (production.ts);
      // the sign-in page does without it when its own CSS is inline.
      ...(styles === 'sign-in-inline' && route === '#/login'
        ? []
        : stylesheetsFor(metafile, [entry]).map(toUrl)),
      ...scripts.map(toUrl),
    ]),
  ]
}

export interface FileBytes {
  file: string
  raw: number
  gzip: number
  brotli: number
  /** Whether dist/ holds .br and .gz siblings, i.e. whether the server sends it compressed. */
  precompressed: boolean
}

export interface RouteBytes {
  route: Route
  requests: number
  raw: number
  gzip: number
  brotli: number
  /**
   * The body bytes a browser that accepts brotli really receives: the .br sibling when there is
   * one, else the raw file (the server does not compress small files on the fly).
   */
  servedBrotli: number
  files: FileBytes[]
}

async function sizeOf(path: string): Promise<number | undefined> {
  try {
    return (await readFile(path)).length
  } catch {
    return undefined
  }
}

/** Sizes of one file of dist/: its real .gz/.br siblings, or the same compression in memory. */
export async function fileBytes(distDir: string, file: string): Promise<FileBytes> {
  const path = join(distDir, file)
  const data = await readFile(path)
  const [gzSibling, brSibling] = await Promise.all([sizeOf(`${path}.gz`), sizeOf(`${path}.br`)])
  const gzip = gzSibling ?? (await gzipBytes(data)).length
  const brotli = brSibling ?? (await brotliBytes(data)).length
  return {
    file,
    raw: data.length,
    gzip,
    brotli,
    precompressed: gzSibling !== undefined && brSibling !== undefined,
  }
}

/** `entryPoints` from the build's route table in `distDir` when left out. */
export async function routeBytes(
  metafile: Metafile,
  route: Route,
  distDir: string,
  entryPoints?: RouteEntryPoints,
): Promise<RouteBytes> {
  const styles = pageStyles(await readFile(join(distDir, INDEX_HTML), 'utf8'))
  entryPoints ??= routeEntryPoints(await readBuiltRouteTable(distDir))
  const files = await Promise.all(
    routeFiles(metafile, entryPoints, route, styles).map((file) => fileBytes(distDir, file)),
  )
  const sum = (pick: (file: FileBytes) => number) =>
    files.reduce((total, file) => total + pick(file), 0)
  return {
    route,
    requests: files.length,
    raw: sum((file) => file.raw),
    gzip: sum((file) => file.gzip),
    brotli: sum((file) => file.brotli),
    servedBrotli: sum((file) => (file.precompressed ? file.brotli : file.raw)),
    files,
  }
}

export async function readMetafile(path: string): Promise<Metafile> {
  return JSON.parse(await readFile(path, 'utf8')) as Metafile
}
