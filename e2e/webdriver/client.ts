/**
 * A small W3C WebDriver client over fetch: what the WebKit smoke run (./smoke.ts) needs of
 * WebKitWebDriver, and nothing else. Elements are found the way the Playwright suites find them,
 * by role and accessible name, but with the browser's own answers (WebDriver's "Get Computed
 * Role" and "Get Computed Label"), not a reimplementation of them.
 *
 * Why not WebdriverIO: its `webdriver` package alone brings some 60 packages (a BiDi layer,
 * proxies, a logger) for the dozen commands used here.
 */

const ELEMENT = 'element-6066-11e4-a52e-4f735466cecf'

export interface Element {
  [ELEMENT]: string
}

export class WebDriverError extends Error {
  constructor(
    readonly error: string,
    message: string,
  ) {
    super(`${error}: ${message}`)
    this.name = 'WebDriverError'
  }
}

/** How long a wait for what a person would wait for lasts (the Playwright suites' expect timeout). */
export const WAIT_MS = 10_000

const ROLE_SELECTORS: Record<string, string> = {
  button: 'button, [role="button"], input[type="submit"], input[type="button"]',
  heading: 'h1, h2, h3, h4, h5, h6, [role="heading"]',
  dialog: 'dialog, [role="dialog"]',
  link: 'a[href], [role="link"]',
}

/** The longest a WebDriver command may take, a new session (a browser's start) included. */
const COMMAND_MS = 60_000

async function call(
  url: string,
  method: 'GET' | 'POST' | 'DELETE',
  body?: unknown,
): Promise<unknown> {
  const response = await fetch(url, {
    // No command may hang the run: WebKitWebDriver has kept a new session's request open with no
    // browser started (a loaded CI machine), and the journeys' own timeout starts after it.
    signal: AbortSignal.timeout(COMMAND_MS),
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json; charset=utf-8' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const answer = (await response.json()) as { value: unknown }
  const value = answer.value as { error?: string; message?: string } | null
  if (!response.ok && value && typeof value === 'object' && 'error' in value) {
    throw new WebDriverError(value.error ?? 'error', value.message ?? '')
  }
  return answer.value
}

/** Polls `probe` until it returns something other than undefined, null or false. */
export async function until<T>(
  what: string,
  probe: () => Promise<T | undefined | null | false>,
  timeout = WAIT_MS,
): Promise<T> {
  const deadline = Date.now() + timeout
  let last: unknown
  for (;;) {
    try {
      const value = await probe()
      if (value !== undefined && value !== null && value !== false) return value
      last = undefined
    } catch (error) {
      // An element that went away while it was read (React replaced it): look again.
      last = error
    }
    if (Date.now() > deadline) {
      const why = last instanceof Error ? ` (last error: ${last.message})` : ''
      throw new Error(`waited ${timeout} ms for ${what}${why}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

export class Session {
  private constructor(private readonly base: string) {}

  static async start(driverURL: string, capabilities: Record<string, unknown>): Promise<Session> {
    const created = (await call(`${driverURL}/session`, 'POST', {
      capabilities: { alwaysMatch: capabilities },
    })) as { sessionId: string }
    return new Session(`${driverURL}/session/${created.sessionId}`)
  }

  private command(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown) {
    return call(`${this.base}${path}`, method, method === 'POST' ? (body ?? {}) : undefined)
  }

  async quit(): Promise<void> {
    await this.command('DELETE', '')
  }

  async setWindowSize(width: number, height: number): Promise<void> {
    await this.command('POST', '/window/rect', { width, height })
  }

  async navigate(url: string): Promise<void> {
    await this.command('POST', '/url', { url })
  }

  async url(): Promise<string> {
    return (await this.command('GET', '/url')) as string
  }

  /** The hash route the page is on, e.g. `/login?redirect=%2Fperfil`. */
  async route(): Promise<string> {
    return new URL(await this.url()).hash.replace(/^#/, '')
  }

  async execute<T>(script: string, ...args: unknown[]): Promise<T> {
    return (await this.command('POST', '/execute/sync', { script, args })) as T
  }

  async findAll(css: string, within?: Element): Promise<Element[]> {
    const path = within ? `/element/${within[ELEMENT]}/elements` : '/elements'
    return (await this.command('POST', path, { using: 'css selector', value: css })) as Element[]
  }

  async displayed(element: Element): Promise<boolean> {
    return (await this.command('GET', `/element/${element[ELEMENT]}/displayed`)) as boolean
  }

  async role(element: Element): Promise<string> {
    return (await this.command('GET', `/element/${element[ELEMENT]}/computedrole`)) as string
  }

  async label(element: Element): Promise<string> {
    return (await this.command('GET', `/element/${element[ELEMENT]}/computedlabel`)) as string
  }

  async text(element: Element): Promise<string> {
    return (await this.command('GET', `/element/${element[ELEMENT]}/text`)) as string
  }

  async attribute(element: Element, name: string): Promise<string | null> {
    return (await this.command('GET', `/element/${element[ELEMENT]}/attribute/${name}`)) as
      string | null
  }

  async click(element: Element): Promise<void> {
    await this.command('POST', `/element/${element[ELEMENT]}/click`)
  }

  async type(element: Element, text: string): Promise<void> {
    await this.command('POST', `/element/${element[ELEMENT]}/clear`)
    await this.command('POST', `/element/${element[ELEMENT]}/value`, { text })
  }

  /** The first shown element of that role whose accessible name matches, as the browser computes both. */
  async byRole(
    role: keyof typeof ROLE_SELECTORS,
    name: string | RegExp,
    within?: Element,
  ): Promise<Element | undefined> {
    for (const element of await this.findAll(ROLE_SELECTORS[role] ?? role, within)) {
      if (!(await this.displayed(element))) continue
      if ((await this.role(element)) !== role) continue
      const label = (await this.label(element)).trim()
      if (typeof name === 'string' ? label === name : name.test(label)) return element
    }
    return undefined
  }

  /** The shown form field whose accessible name (its label) is exactly `name`. */
  async byLabel(name: string): Promise<Element | undefined> {
    for (const element of await this.findAll('input, textarea, select')) {
      if (!(await this.displayed(element))) continue
      if ((await this.label(element)).trim() === name) return element
    }
    return undefined
  }

  /** Whether the page shows `text` (what a person can read: innerText). */
  async shows(text: string): Promise<boolean> {
    return this.execute<boolean>('return document.body.innerText.includes(arguments[0])', text)
  }

  // Waits, each for what a person would wait for.
  waitForRole(role: keyof typeof ROLE_SELECTORS, name: string | RegExp, within?: Element) {
    return until(`the ${role} "${String(name)}"`, () => this.byRole(role, name, within))
  }

  waitForLabel(name: string) {
    return until(`the field "${name}"`, () => this.byLabel(name))
  }

  waitForText(text: string, timeout?: number) {
    return until(`the text "${text}"`, () => this.shows(text), timeout)
  }

  waitForRoute(expected: string) {
    let seen = ''
    return until(`the route ${expected}`, async () => {
      seen = await this.route()
      return seen === expected
    }).catch((error: Error) => {
      throw new Error(`${error.message}; the page is on ${seen}`)
    })
  }

  waitForGone(role: keyof typeof ROLE_SELECTORS, name: string | RegExp) {
    return until(`the ${role} "${String(name)}" to go`, async () =>
      (await this.byRole(role, name)) === undefined ? true : undefined,
    )
  }

  /** `<html data-coreui-theme>`, polled until it matches. */
  waitForTheme(expected: string | RegExp) {
    let seen: string | null = null
    return until(`data-coreui-theme ${String(expected)}`, async () => {
      seen = await this.execute<string | null>(
        'return document.documentElement.getAttribute("data-coreui-theme")',
      )
      return (
        seen !== null && (typeof expected === 'string' ? seen === expected : expected.test(seen))
      )
    }).catch((error: Error) => {
      throw new Error(`${error.message}; it is ${seen}`)
    })
  }

  /**
   * Resolves once the app has taken over the page (e2e/fixtures.ts, appStarted): the prerendered
   * sign-in page hydrated, or the boot spinner gone.
   */
  async appStarted(): Promise<void> {
    await until('the app to start', () =>
      this.execute<boolean>(
        "return !document.querySelector('#root[data-prerendered], .painel-boot-spinner')",
      ),
    ).catch(() => undefined)
  }
}
