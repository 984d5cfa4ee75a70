/**
 * The sign-in form on a slow phone: cold loads of #/login with Chromium's network and CPU
 * throttled through the DevTools protocol (the profile below), for the build under test and for
 * the same build without the prerendered page, alternating run by run so that a slow spell of
 * the shared machine hits both alike.
 */
import type { Browser, Page } from '@playwright/test'
import type { BuildUnderTest } from './dist-snapshot'
import { startPainel, type PainelServer } from './painel-server'
import { round, spread, type Spread } from './stats'

/** A weak mobile connection (Lighthouse's "slow 4G" figures) and a phone's slower CPU. */
export const THROTTLING = {
  latencyMs: 150,
  downloadKbps: 1600,
  uploadKbps: 750,
  cpuSlowdown: 4,
} as const

export const THROTTLING_LABEL = `${THROTTLING.downloadKbps / 1000} Mbps down, ${THROTTLING.latencyMs} ms RTT, ${THROTTLING.cpuSlowdown}× CPU`

const VISIBLE_TIMEOUT_MS = 60_000

/** Puts the page on the profile above, with its cache disabled (a cold load). */
export async function throttle(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Network.enable')
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true })
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: THROTTLING.latencyMs,
    downloadThroughput: (THROTTLING.downloadKbps * 1000) / 8,
    uploadThroughput: (THROTTLING.uploadKbps * 1000) / 8,
  })
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLING.cpuSlowdown })
}

export interface ThrottledSample {
  /** Navigation start to the first contentful paint, as the page's Paint Timing reports it. */
  firstPaintMs: number
  /** Navigation start until the button "Entrar" is visible. */
  formVisibleMs: number
  /** Navigation start until the app has the form (hydrated or rendered): a submit is handled. */
  appReadyMs: number
}

export interface ThrottledVariant {
  build: 'prerendered' | 'without prerendering'
  firstPaintMs: Spread
  formVisibleMs: Spread
  appReadyMs: Spread
  samples: ThrottledSample[]
}

export interface ThrottledResult {
  profile: string
  runs: number
  variants: ThrottledVariant[]
}

async function throttledLoad(browser: Browser, url: string): Promise<ThrottledSample> {
  const context = await browser.newContext({ locale: 'pt-BR' })
  try {
    const page = await context.newPage()
    await throttle(page)
    await page.goto(url, { waitUntil: 'commit' })
    await page
      .getByRole('button', { name: 'Entrar', exact: true })
      .waitFor({ state: 'visible', timeout: VISIBLE_TIMEOUT_MS })
    const formVisibleMs = await page.evaluate(() => performance.now())
    // The app has the form once #root no longer carries the prerendered marker (client/src/app/
    // mount.tsx removes it at React's first commit; a build without prerendering never has it).
    await page
      .locator('#root:not([data-prerendered])')
      .waitFor({ state: 'attached', timeout: VISIBLE_TIMEOUT_MS })
    const appReadyMs = await page.evaluate(() => performance.now())
    const firstPaintMs = await page.evaluate(
      () => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN,
    )
    return {
      firstPaintMs: round(firstPaintMs, 1),
      formVisibleMs: round(formVisibleMs, 1),
      appReadyMs: round(appReadyMs, 1),
    }
  } finally {
    await context.close()
  }
}

export async function measureThrottledSignIn(
  browser: Browser,
  builds: { prerendered: BuildUnderTest; withoutPrerender: BuildUnderTest },
  runs: number,
  log: (line: string) => void,
): Promise<ThrottledResult> {
  const servers: { name: ThrottledVariant['build']; server: PainelServer }[] = []
  try {
    servers.push({ name: 'prerendered', server: await startPainel(builds.prerendered) })
    servers.push({
      name: 'without prerendering',
      server: await startPainel(builds.withoutPrerender),
    })
    const samples = new Map(servers.map(({ name }) => [name, [] as ThrottledSample[]]))
    for (const { server } of servers) await throttledLoad(browser, `${server.baseURL}/#/login`)
    for (let run = 1; run <= runs; run++) {
      for (const { name, server } of servers) {
        const sample = await throttledLoad(browser, `${server.baseURL}/#/login`)
        samples.get(name)!.push(sample)
        log(
          `  throttled #/login, ${name}, ${run}/${runs}: form visible ${sample.formVisibleMs} ms, app ready ${sample.appReadyMs} ms`,
        )
      }
    }
    return {
      profile: THROTTLING_LABEL,
      runs,
      variants: servers.map(({ name }) => {
        const list = samples.get(name)!
        return {
          build: name,
          firstPaintMs: spread(list.map((sample) => sample.firstPaintMs)),
          formVisibleMs: spread(list.map((sample) => sample.formVisibleMs)),
          appReadyMs: spread(list.map((sample) => sample.appReadyMs)),
          samples: list,
        }
      }),
    }
  } finally {
    for (const { server } of servers) await server.stop()
  }
}
