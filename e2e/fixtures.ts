import { test as base, expect, type APIRequestContext, type Page } from '@playwright/test'
import { adminAccount, apiSignIn, createStaff, type TestAccount } from './support/accounts'
import { recordApiExchanges } from './support/api-contract'
import { fillSeenByReact } from './support/firefox-fill'
import { isInstalled } from './support/installed-browsers'

interface PanelFixtures {
  /** Automatic, first: a project whose browser is not installed skips, saying so. */
  browserInstalled: void
  /** Page errors a test provokes on purpose (matched against the message); none by default. */
  expectedPageErrors: RegExp[]
  /** Automatic: fails the test on any uncaught page error or Content-Security-Policy violation. */
  failOnPageProblems: void
  /**
   * Automatic: fails the test when a request the pages sent to /api, or its answer, differs from
   * the panel's OpenAPI document (/api/openapi.json).
   */
  apiContract: void
  /** Off only for a test that fakes a wrong answer on purpose (api-contract.spec.ts). */
  checkApiContract: boolean
  /**
   * Who is signed in when the test's pages open: nobody (default), a fresh active staff account,
   * or the first admin. The session is a real one, from the API; its token is in token_adm.
   */
  signedInAs: 'staff' | 'admin' | null
  /** The account of signedInAs (null when nobody is signed in). */
  account: TestAccount | null
  /**
   * Calls to the panel's API from the test's side. (Playwright's own `request` fixture carries the
   * test's storageState, which here is made from an API call: so a separate context.)
   */
  api: APIRequestContext
}

/**
 * Resolves once the app has taken over the page: the prerendered sign-in page hydrated, or the
 * boot spinner gone. The page's load event no longer says so: the app's scripts are requested
 * after the first paint (client/src/prerender/start-after-paint.ts). A page that never gets
 * there (a test that breaks the app on purpose) is left to the test after 10 s.
 */
async function appStarted(page: Page): Promise<void> {
  await page
    .waitForFunction(
      () => !document.querySelector('#root[data-prerendered], .painel-boot-spinner'),
      null,
      {
        timeout: 10_000,
      },
    )
    .catch(() => {})
}

/**
 * Firefox over WebDriver BiDi runs init scripts in the tab's first empty document too (its
 * location still blank; Chromium does not), where Web Storage throws "The operation is insecure": a page error the test did not cause. There,
 * the test's init scripts run only in the panel's pages, as they do in Chromium.
 */
function onlyInWebPages(page: Page): void {
  for (const target of [page, page.context()]) {
    type Add = (script: unknown, arg?: unknown) => Promise<unknown>
    const add = target.addInitScript.bind(target) as unknown as Add
    target.addInitScript = ((script: unknown, arg?: unknown) =>
      typeof script === 'function'
        ? add({
            content: `if (/^https?:$/.test(location.protocol)) (${String(script)})(${arg === undefined ? '' : JSON.stringify(arg)})`,
          })
        : add(script, arg)) as Add as unknown as typeof target.addInitScript
  }
}

export const test = base.extend<PanelFixtures>({
  /**
   * `goto` and `reload` with the default `waitUntil` also wait for the app (appStarted), as
   * they did when the load event waited for its scripts; an explicit `waitUntil` (a test that
   * holds the app's scripts: 'commit') waits for that alone.
   */
  page: async ({ page, browserName }, use) => {
    if (browserName === 'firefox') {
      onlyInWebPages(page)
      fillSeenByReact(page)
    }
    const goto = page.goto.bind(page)
    const reload = page.reload.bind(page)
    page.goto = async (url, options) => {
      const response = await goto(url, options)
      if (!options?.waitUntil) await appStarted(page)
      return response
    }
    page.reload = async (options) => {
      const response = await reload(options)
      if (!options?.waitUntil) await appStarted(page)
      return response
    }
    await use(page)
  },

  browserInstalled: [
    async ({ browserName }, use, testInfo) => {
      testInfo.skip(
        !isInstalled(browserName),
        `${browserName} is not installed here (npx playwright install ${browserName}): skipped`,
      )
      await use()
    },
    { auto: true },
  ],
  expectedPageErrors: [[], { option: true }],
  signedInAs: [null, { option: true }],

  api: async ({ playwright, baseURL }, use) => {
    const context = await playwright.request.newContext({ baseURL })
    await use(context)
    await context.dispose()
  },

  account: async ({ signedInAs, api }, use) => {
    if (signedInAs === null) return use(null)
    await use(signedInAs === 'admin' ? adminAccount() : await createStaff(api))
  },

  storageState: async ({ account, api, baseURL }, use) => {
    if (!account || !baseURL) return use(undefined)
    const token = await apiSignIn(api, account.email, account.password)
    await use({
      cookies: [],
      origins: [
        {
          origin: baseURL,
          localStorage: [{ name: 'token_adm', value: JSON.stringify({ token }) }],
        },
      ],
    })
  },

  failOnPageProblems: [
    async ({ context, expectedPageErrors, browserName }, use) => {
      const problems: string[] = []
      // Playwright's screenshots hide the caret and stop animations with a <style> it puts in
      // the page. Chromium applies it past the page's CSP (CDP); Firefox over WebDriver BiDi
      // holds it to the CSP, which blocks it: a violation by the test tool, not the panel. Those
      // (style-src-elem, while a screenshot is taken and just after) are left out in Firefox.
      let screenshotting = 0
      let screenshotEnded = 0
      const byScreenshot = (text: string) =>
        browserName === 'firefox' &&
        /style-src-elem/.test(text) &&
        (screenshotting > 0 || performance.now() - screenshotEnded < 1000)
      const report = (text: string) => {
        if (!byScreenshot(text)) problems.push(text)
      }
      const watch = (page: Page) => {
        if (browserName === 'firefox') {
          const screenshot = page.screenshot.bind(page)
          page.screenshot = async (options) => {
            screenshotting += 1
            try {
              return await screenshot(options)
            } finally {
              screenshotting -= 1
              screenshotEnded = performance.now()
            }
          }
        }
        page.on('pageerror', (error) => {
          if (!expectedPageErrors.some((pattern) => pattern.test(error.message))) {
            report(`uncaught error on ${page.url()}: ${error.message}`)
          }
        })
        page.on('console', (message) => {
          if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) {
            report(`CSP (console) on ${page.url()}: ${message.text()}`)
          }
        })
      }
      context.on('page', watch)
      context.pages().forEach(watch)
      // The browser reports each violation as an event in the page; forward it here.
      await context.exposeBinding('__painelReportCsp', ({ page }, violation: string) => {
        report(`CSP violation on ${page.url()}: ${violation}`)
      })
      await context.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (event) => {
          const report = (window as unknown as { __painelReportCsp: (text: string) => void })
            .__painelReportCsp
          report(
            `${event.effectiveDirective} blocked ${event.blockedURI || 'inline'} (${event.sourceFile}:${event.lineNumber})`,
          )
        })
      })
      await use()
      expect(problems, 'the pages raised no uncaught error and no CSP violation').toEqual([])
    },
    { auto: true },
  ],

  checkApiContract: [true, { option: true }],
  apiContract: [
    async ({ context, api, baseURL, checkApiContract, browserName }, use) => {
      if (!baseURL || !checkApiContract) return use()
      // Playwright's WebDriver BiDi layer reports no request body (postData() is null) and no
      // content-type: in Firefox only the answers and the requests' paths and queries are held
      // against the document; Chromium checks the bodies sent too.
      const exchanges = recordApiExchanges(context, api, baseURL, {
        requestBodies: browserName !== 'firefox',
      })
      await use()
      expect(
        (await exchanges.check()).violations,
        'every /api exchange matches the OpenAPI document',
      ).toEqual([])
    },
    { auto: true },
  ],
})

export { expect }
