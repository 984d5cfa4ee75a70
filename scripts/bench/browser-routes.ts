/**
 * The two routes in a real Chromium against the compiled server: cold loads (a new context each
 * time, cache disabled) and one warm reload (same context, cache on, after a normal load).
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import {
  chromium,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type Locator,
  type Page,
} from '@playwright/test'
import type { Metafile } from 'esbuild'
import { findBrowser } from '../find-browser'
import type { BuildUnderTest } from './dist-snapshot'
import { recordNetwork, type RequestRecord } from './network-recorder'
import { signIn, startPainel } from './painel-server'
import {
  INDEX_HTML,
  pageStyles,
  readMetafile,
  routeEntryPoints,
  routeFiles,
  ROUTES,
  type PageStyles,
  type Route,
  type RouteEntryPoints,
} from '../build/route-bytes'
import { readBuiltRouteTable } from '../build/route-table'
import { median, round, spread, type Spread } from './stats'
import { measurePasswordMeter, type MeterResult } from './password-meter'
import { measureThrottledSignIn, type ThrottledResult } from './throttled-sign-in'

const VISIBLE_TIMEOUT_MS = 30_000
const IDLE_TIMEOUT_MS = 15_000

/** What "the route has shown" means for each route: the element a user is waiting for. */
const SHOWN: Record<Route, { what: string; locate: (page: Page) => Locator }> = {
  '#/login': {
    what: 'the button "Entrar"',
    locate: (page) => page.getByRole('button', { name: 'Entrar', exact: true }),
  },
  '#/dashboard': {
    what: 'the level-1 heading "Início"',
    locate: (page) => page.getByRole('heading', { level: 1, name: 'Início', exact: true }),
  },
}

export interface LoadSample {
  requests: number
  apiRequests: number
  wireBytes: number
  /** From navigation start (the page's performance.timeOrigin) until the element is visible. */
  visibleMs: number
  records: RequestRecord[]
}

export interface WarmReload {
  /** Requests that went to the server (not answered from the cache). */
  network: { method: string; path: string; status: number; wireBytes: number }[]
  fromCache: number
  wireBytes: number
  visibleMs: number
  /** The goal: of the static files, only index.html went to the network, answered 304. */
  onlyPageRevalidated: boolean
}

export interface BrowserRoute {
  route: Route
  cold: {
    runs: number
    requests: Spread
    apiRequests: number
    wireBytes: Spread
    visibleMs: Spread
    /** Static files of the first cold load against routeFiles(), the metafile's model. */
    model: {
      matches: boolean
      onlyInBrowser: string[]
      onlyInModel: string[]
    }
    samples: LoadSample[]
  }
  warm: WarmReload
}

/**
 * Cold #/login on a server with two sign-in providers (issue 28): the server writes their buttons,
 * marks and data block into the page it serves, which must keep the cold page's budget.
 */
export interface LoginWithProviders {
  /** AUTH_PROVIDERS, as the server had it. */
  providers: string
  runs: number
  requests: Spread
  wireBytes: Spread
  visibleMs: Spread
  /** The buttons the page showed, by their words. */
  buttons: string[]
}

/**
 * Two providers with marks (Google's and Microsoft's), pointed at a loopback port nothing
 * listens on: discovery fails in the background and delays nothing, as with a provider that is
 * down; the page is the same as with reachable ones.
 */
export const TWO_PROVIDERS_ENV: NodeJS.ProcessEnv = {
  AUTH_PROVIDERS: 'google,entra',
  AUTH_GOOGLE_PRESET: 'google',
  AUTH_GOOGLE_ISSUER_URL: 'http://127.0.0.1:9',
  AUTH_GOOGLE_CLIENT_ID: 'bench-google',
  AUTH_GOOGLE_CLIENT_SECRET: 'bench-google-secret',
  AUTH_ENTRA_PRESET: 'entra',
  AUTH_ENTRA_ISSUER_URL: 'http://127.0.0.1:9/bench-tenant/v2.0',
  AUTH_ENTRA_CLIENT_ID: 'bench-entra',
  AUTH_ENTRA_CLIENT_SECRET: 'bench-entra-secret',
}

export interface BrowserResult {
  browser: string
  browserVersion: string
  routes: BrowserRoute[]
  loginWithProviders: LoginWithProviders
  /** #/login on a throttled profile, prerendered and not (throttled-sign-in.ts). */
  throttledSignIn: ThrottledResult
  /** #/register on the throttled profile, until the meter rates a typed password (password-meter.ts). */
  passwordMeter: MeterResult
}

/** `/` → `index.html`, `/assets/x` → `assets/x` (the names routeFiles uses); null otherwise. */
function staticFile(path: string): string | null {
  if (path === '/' || path === '/index.html') return 'index.html'
  if (path.startsWith('/assets/')) return path.slice(1)
  return null
}

const isApi = (record: RequestRecord) => record.path.startsWith('/api/')

/**
 * A context whose pages open no session stream (common/session-events.ts): it stays open while
 * the panel is, so the network would never be quiet, and it is no part of what a load costs.
 */
async function newBenchContext(
  browser: Browser,
  options: BrowserContextOptions,
): Promise<BrowserContext> {
  const context = await browser.newContext(options)
  await context.route('**/api/auth/session-events', (route) => route.abort())
  return context
}

/** Loads the route and waits until it has shown and the network is quiet. */
async function loadRoute(page: Page, route: Route, load: () => Promise<unknown>): Promise<number> {
  await load()
  const shown = SHOWN[route]
  try {
    await shown.locate(page).waitFor({ state: 'visible', timeout: VISIBLE_TIMEOUT_MS })
  } catch {
    throw new Error(
      `${route}: ${shown.what} was not visible within ${VISIBLE_TIMEOUT_MS} ms (page at ${page.url()})`,
    )
  }
  // Read right away: performance.now() counts from the navigation's start in the page's own clock.
  const visibleMs = await page.evaluate(() => performance.now())
  // Counted after the network is quiet, so late requests (API calls) are included.
  await page.waitForLoadState('networkidle', { timeout: IDLE_TIMEOUT_MS })
  return round(visibleMs, 1)
}

function watchPageErrors(page: Page): () => void {
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  return () => {
    if (errors.length > 0) throw new Error(`the page raised errors: ${errors.join('; ')}`)
  }
}

async function coldLoad(
  browser: Browser,
  url: string,
  route: Route,
  options: BrowserContextOptions,
): Promise<LoadSample> {
  const context = await newBenchContext(browser, options)
  try {
    const page = await context.newPage()
    const checkErrors = watchPageErrors(page)
    const network = await recordNetwork(page, { cacheDisabled: true })
    const visibleMs = await loadRoute(page, route, () => page.goto(url, { waitUntil: 'commit' }))
    checkErrors()
    const records = network.records()
    return {
      requests: records.length,
      apiRequests: records.filter(isApi).length,
      wireBytes: records.reduce((sum, record) => sum + record.wireBytes, 0),
      visibleMs,
      records,
    }
  } finally {
    await context.close()
  }
}

async function warmReload(
  browser: Browser,
  url: string,
  route: Route,
  options: BrowserContextOptions,
): Promise<WarmReload> {
  const context = await newBenchContext(browser, options)
  try {
    const page = await context.newPage()
    const checkErrors = watchPageErrors(page)
    const network = await recordNetwork(page, { cacheDisabled: false })
    await loadRoute(page, route, () => page.goto(url, { waitUntil: 'commit' }))
    network.clear()
    const visibleMs = await loadRoute(page, route, () => page.reload({ waitUntil: 'commit' }))
    checkErrors()
    const records = network.records()
    const toNetwork = records.filter((record) => !record.fromCache)
    const staticOnNetwork = toNetwork.filter((record) => staticFile(record.path) !== null)
    return {
      network: toNetwork.map(({ method, path, status, wireBytes }) => ({
        method,
        path,
        status,
        wireBytes,
      })),
      fromCache: records.length - toNetwork.length,
      wireBytes: toNetwork.reduce((sum, record) => sum + record.wireBytes, 0),
      visibleMs,
      onlyPageRevalidated:
        staticOnNetwork.length === 1 &&
        staticFile(staticOnNetwork[0]!.path) === 'index.html' &&
        staticOnNetwork[0]!.status === 304,
    }
  } finally {
    await context.close()
  }
}

function compareWithModel(
  metafile: Metafile,
  entryPoints: RouteEntryPoints,
  styles: PageStyles,
  route: Route,
  sample: LoadSample,
) {
  const model = new Set(routeFiles(metafile, entryPoints, route, styles))
  const fetched = new Set(sample.records.flatMap((record) => staticFile(record.path) ?? []))
  const onlyInBrowser = [...fetched].filter((file) => !model.has(file))
  const onlyInModel = [...model].filter((file) => !fetched.has(file))
  return {
    matches: onlyInBrowser.length === 0 && onlyInModel.length === 0,
    onlyInBrowser,
    onlyInModel,
  }
}

export async function measureBrowser(
  build: BuildUnderTest,
  withoutPrerender: BuildUnderTest,
  runs: number,
  log: (line: string) => void,
): Promise<BrowserResult> {
  const choice = findBrowser()
  const metafile = await readMetafile(build.metafilePath)
  const styles = pageStyles(await readFile(join(build.distDir, INDEX_HTML), 'utf8'))
  const entryPoints = routeEntryPoints(await readBuiltRouteTable(build.distDir))
  const server = await startPainel(build)
  let browser: Browser | undefined
  try {
    log(`  Painel on ${server.baseURL} (LOG_LEVEL=warn); browser: ${choice.description}`)
    browser = await chromium.launch({ executablePath: choice.executablePath, args: choice.args })
    const token = await signIn(server.baseURL)
    const base: BrowserContextOptions = { locale: 'pt-BR' }
    const contextFor = (route: Route): BrowserContextOptions =>
      route === '#/dashboard'
        ? {
            ...base,
            storageState: {
              cookies: [],
              origins: [
                {
                  origin: server.baseURL,
                  localStorage: [{ name: 'token_adm', value: JSON.stringify({ token }) }],
                },
              ],
            },
          }
        : base
    const urlOf = (route: Route) => `${server.baseURL}/${route}`

    // One load per route first, not counted: the first page a fresh browser opens is slower
    // for reasons of the browser (its processes and caches warming up), not of the route.
    for (const route of ROUTES) await coldLoad(browser, urlOf(route), route, contextFor(route))

    const samples = new Map<Route, LoadSample[]>(ROUTES.map((route) => [route, []]))
    // Routes alternate run by run, so a slow spell of the (shared) machine hits both alike.
    for (let run = 1; run <= runs; run++) {
      for (const route of ROUTES) {
        const sample = await coldLoad(browser, urlOf(route), route, contextFor(route))
        samples.get(route)!.push(sample)
        log(`  cold ${route} ${run}/${runs}: ${sample.visibleMs} ms, ${sample.requests} requests`)
      }
    }

    const routes: BrowserRoute[] = []
    for (const route of ROUTES) {
      const cold = samples.get(route)!
      routes.push({
        route,
        cold: {
          runs,
          requests: spread(cold.map((sample) => sample.requests)),
          apiRequests: median(cold.map((sample) => sample.apiRequests)),
          wireBytes: spread(cold.map((sample) => sample.wireBytes)),
          visibleMs: spread(cold.map((sample) => sample.visibleMs)),
          model: compareWithModel(metafile, entryPoints, styles, route, cold[0]!),
          samples: cold,
        },
        warm: await warmReload(browser, urlOf(route), route, contextFor(route)),
      })
    }
    const loginWithProviders = await measureLoginWithProviders(build, browser, runs, log)
    const throttledSignIn = await measureThrottledSignIn(
      browser,
      { prerendered: build, withoutPrerender },
      runs,
      log,
    )
    const passwordMeter = await measurePasswordMeter(browser, server.baseURL, runs, log)
    return {
      browser: choice.description,
      browserVersion: browser.version(),
      routes,
      loginWithProviders,
      throttledSignIn,
      passwordMeter,
    }
  } finally {
    await browser?.close()
    await server.stop()
  }
}

/** Cold #/login `runs` times on a server of its own with TWO_PROVIDERS_ENV. */
export async function measureLoginWithProviders(
  build: BuildUnderTest,
  browser: Browser,
  runs: number,
  log: (line: string) => void,
): Promise<LoginWithProviders> {
  const server = await startPainel(build, TWO_PROVIDERS_ENV)
  try {
    const url = `${server.baseURL}/#/login`
    const options: BrowserContextOptions = { locale: 'pt-BR' }
    // Not counted, like the first loads of the routes above.
    await coldLoad(browser, url, '#/login', options)
    const samples: LoadSample[] = []
    for (let run = 1; run <= runs; run++) {
      const sample = await coldLoad(browser, url, '#/login', options)
      samples.push(sample)
      log(
        `  cold #/login, two providers, ${run}/${runs}: ${sample.visibleMs} ms, ${sample.requests} requests, ${sample.wireBytes} B`,
      )
    }
    return {
      providers: TWO_PROVIDERS_ENV.AUTH_PROVIDERS ?? '',
      runs,
      requests: spread(samples.map((sample) => sample.requests)),
      wireBytes: spread(samples.map((sample) => sample.wireBytes)),
      visibleMs: spread(samples.map((sample) => sample.visibleMs)),
      buttons: await providerButtons(browser, url),
    }
  } finally {
    await server.stop()
  }
}

/** The words of the page's provider links: proof the measured page had the buttons. */
async function providerButtons(browser: Browser, url: string): Promise<string[]> {
  const context = await newBenchContext(browser, { locale: 'pt-BR' })
  try {
    const page = await context.newPage()
    await page.goto(url)
    return await page.locator('#painel-sign-in-providers a').allInnerTexts()
  } finally {
    await context.close()
  }
}

/** `--only login-sso`: the same measurement, with a browser of its own. */
export async function measureLoginWithProvidersAlone(
  build: BuildUnderTest,
  runs: number,
  log: (line: string) => void,
): Promise<LoginWithProviders> {
  const choice = findBrowser()
  const browser = await chromium.launch({
    executablePath: choice.executablePath,
    args: choice.args,
  })
  try {
    return await measureLoginWithProviders(build, browser, runs, log)
  } finally {
    await browser.close()
  }
}
