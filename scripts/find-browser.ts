/**
 * Which browsers the suites drive.
 * - Chromium (Playwright suites, benchmarks): the one Playwright manages when it is installed
 *   (`npx playwright install chromium`), else a system Chromium, else a clear error.
 *   `CHROMIUM_PATH` names one explicitly. For the suites, which run headless, a headless-only
 *   build comes first (apt's `chromium-headless-shell`), as Playwright's own Chromium runs its
 *   headless shell: four suites took 209 s in it against 358 s in the full browser (docs/testing.md).
 *   The benchmarks keep the full browser, which is what a person loads the panel in.
 * - Firefox (Playwright suites): a stock Firefox driven over WebDriver BiDi (Playwright's
 *   `moz-firefox` channel), apt's `firefox-esr` by default, `FIREFOX_PATH` to name another.
 *   Playwright's own patched Firefox cannot be downloaded on these machines.
 * - WebKit (the smoke set through WebDriver, e2e/webdriver/): apt's `webkit2gtk-driver`
 *   (WebKitWebDriver, which starts WebKitGTK's MiniBrowser), and `Xvfb` when there is no display.
 *   Playwright cannot drive WebKitGTK.
 *
 * CLI: `tsx scripts/find-browser.ts [chromium|headless|firefox|webkit]` prints the choice, or exits
 * 1 with how to install it (.ci/run uses that to decide what to apt-get install).
 */
import { existsSync } from 'node:fs'
import { chromium } from '@playwright/test'

const SYSTEM_CHROMIUMS = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome-stable',
  '/usr/bin/google-chrome',
]

/** Debian's Chromium without its windowing half, for headless runs only. */
const SYSTEM_HEADLESS_SHELLS = ['/usr/bin/chromium-headless-shell']

/** What a system Chromium needs here: no sandbox as root in a container, and no calls home. */
const SYSTEM_CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
]

export interface BrowserChoice {
  /** Undefined: Playwright's own browser. */
  executablePath: string | undefined
  args: string[]
  description: string
}

export class NoBrowserError extends Error {
  constructor() {
    super(
      [
        'No Chromium found for Playwright.',
        'Install one of:',
        "  - Playwright's own:  npx playwright install chromium",
        '  - Debian/Ubuntu:     sudo apt-get install chromium',
        'or point CHROMIUM_PATH at a Chromium or Chrome executable.',
      ].join('\n'),
    )
    this.name = 'NoBrowserError'
  }
}

function playwrightsOwn(): string | undefined {
  try {
    const path = chromium.executablePath()
    return existsSync(path) ? path : undefined
  } catch {
    return undefined
  }
}

/**
 * `headless`: the browser will run headless (the suites), so a headless-only build will do, and
 * comes before the full one.
 */
export function findBrowser(
  env: NodeJS.ProcessEnv = process.env,
  { headless = false }: { headless?: boolean } = {},
): BrowserChoice {
  const explicit = env.CHROMIUM_PATH?.trim()
  if (explicit) {
    if (!existsSync(explicit)) throw new Error(`CHROMIUM_PATH=${explicit} does not exist`)
    return {
      executablePath: explicit,
      args: SYSTEM_CHROMIUM_ARGS,
      description: `${explicit} (CHROMIUM_PATH)`,
    }
  }
  const own = playwrightsOwn()
  if (own)
    return { executablePath: undefined, args: [], description: `Playwright's Chromium (${own})` }
  const shell = headless ? SYSTEM_HEADLESS_SHELLS.find((path) => existsSync(path)) : undefined
  if (shell)
    return {
      executablePath: shell,
      args: SYSTEM_CHROMIUM_ARGS,
      description: `system Chromium, headless only (${shell})`,
    }
  const system = SYSTEM_CHROMIUMS.find((path) => existsSync(path))
  if (system)
    return {
      executablePath: system,
      args: SYSTEM_CHROMIUM_ARGS,
      description: `system Chromium (${system})`,
    }
  throw new NoBrowserError()
}

/** A browser other than Chromium: found, or why not (named once in `npm test`'s summary). */
export type Engine =
  | { found: true; path: string; description: string; browser?: string }
  | { found: false; reason: string }

const SYSTEM_FIREFOXES = [
  // The binary itself: /usr/bin/firefox is a shell wrapper on Debian.
  '/usr/lib/firefox-esr/firefox-esr',
  '/usr/lib/firefox/firefox',
  '/usr/bin/firefox-esr',
  '/usr/bin/firefox',
]

export function findFirefox(env: NodeJS.ProcessEnv = process.env): Engine {
  const explicit = env.FIREFOX_PATH?.trim()
  if (explicit) {
    return existsSync(explicit)
      ? { found: true, path: explicit, description: `${explicit} (FIREFOX_PATH)` }
      : { found: false, reason: `FIREFOX_PATH=${explicit} does not exist` }
  }
  const system = SYSTEM_FIREFOXES.find((path) => existsSync(path))
  return system
    ? { found: true, path: system, description: `system Firefox (${system}) over WebDriver BiDi` }
    : {
        found: false,
        reason: 'no Firefox installed (apt-get install firefox-esr, or FIREFOX_PATH)',
      }
}

const WEBKIT_DRIVERS = ['/usr/bin/WebKitWebDriver', '/usr/local/bin/WebKitWebDriver']
const XVFB = ['/usr/bin/Xvfb', '/usr/local/bin/Xvfb']
/** WebKitGTK's own small browser, which the driver starts (it comes with libwebkit2gtk). */
const MINIBROWSERS = [
  '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser',
  '/usr/lib/aarch64-linux-gnu/webkit2gtk-4.1/MiniBrowser',
  '/usr/libexec/webkit2gtk-4.1/MiniBrowser',
]

export function findWebKitDriver(env: NodeJS.ProcessEnv = process.env): Engine {
  const explicit = env.WEBKIT_WEBDRIVER_PATH?.trim()
  const driver = explicit || WEBKIT_DRIVERS.find((path) => existsSync(path))
  if (!driver || !existsSync(driver)) {
    return {
      found: false,
      reason: explicit
        ? `WEBKIT_WEBDRIVER_PATH=${explicit} does not exist`
        : 'no WebKitWebDriver installed (apt-get install webkit2gtk-driver)',
    }
  }
  const browser = MINIBROWSERS.find((path) => existsSync(path))
  if (!browser) {
    return { found: false, reason: 'no WebKitGTK MiniBrowser (apt-get install webkit2gtk-driver)' }
  }
  // WebKitGTK's browser is a GTK window: it needs a display, a virtual one on a server.
  if (!env.DISPLAY && !XVFB.some((path) => existsSync(path))) {
    return { found: false, reason: 'no display and no Xvfb for WebKitGTK (apt-get install xvfb)' }
  }
  return { found: true, path: driver, browser, description: `${browser} through ${driver}` }
}

if (process.argv[1]?.endsWith('find-browser.ts')) {
  const which = process.argv[2] ?? 'chromium'
  if (which === 'firefox' || which === 'webkit') {
    const engine = which === 'firefox' ? findFirefox() : findWebKitDriver()
    if (engine.found) console.log(engine.description)
    else {
      console.error(`${which}: ${engine.reason}`)
      process.exit(1)
    }
  } else if (which === 'headless') {
    // .ci/run: exit 1 when the suites would run in a full system Chromium that nobody chose
    // (CHROMIUM_PATH), which apt's chromium-headless-shell replaces for them.
    const choice = findBrowser(process.env, { headless: true })
    console.log(choice.description)
    const chosen = Boolean(process.env.CHROMIUM_PATH?.trim())
    if (!chosen && choice.executablePath && SYSTEM_CHROMIUMS.includes(choice.executablePath)) {
      process.exit(1)
    }
  } else {
    try {
      console.log(findBrowser().description)
    } catch (error) {
      console.error(error instanceof Error ? error.message : String(error))
      process.exit(1)
    }
  }
}
