/**
 * Which Chromium the Playwright suites and the benchmarks drive: the one Playwright manages when
 * it is installed (`npx playwright install chromium`), else a system Chromium, else a clear error.
 * `CHROMIUM_PATH` names one explicitly.
 *
 * CLI: `tsx scripts/find-browser.ts` prints the choice, or exits 1 with how to install one
 * (.ci/run uses that to decide whether to apt-get install chromium).
 */
import { existsSync } from 'node:fs'
import { chromium } from '@playwright/test'

const SYSTEM_CHROMIUMS = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome-stable',
  '/usr/bin/google-chrome',
]

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

export function findBrowser(env: NodeJS.ProcessEnv = process.env): BrowserChoice {
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
  const system = SYSTEM_CHROMIUMS.find((path) => existsSync(path))
  if (system)
    return {
      executablePath: system,
      args: SYSTEM_CHROMIUM_ARGS,
      description: `system Chromium (${system})`,
    }
  throw new NoBrowserError()
}

if (process.argv[1]?.endsWith('find-browser.ts')) {
  try {
    console.log(findBrowser().description)
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error))
    process.exit(1)
  }
}
