import { test as base, expect, type Page } from '@playwright/test'

interface PanelFixtures {
  /** Page errors a test provokes on purpose (matched against the message); none by default. */
  expectedPageErrors: RegExp[]
  /** Automatic: fails the test on any uncaught page error or Content-Security-Policy violation. */
  failOnPageProblems: void
}

export const test = base.extend<PanelFixtures>({
  expectedPageErrors: [[], { option: true }],

  failOnPageProblems: [
    async ({ context, expectedPageErrors }, use) => {
      const problems: string[] = []
      const watch = (page: Page) => {
        page.on('pageerror', (error) => {
          if (!expectedPageErrors.some((pattern) => pattern.test(error.message))) {
            problems.push(`uncaught error on ${page.url()}: ${error.message}`)
          }
        })
        page.on('console', (message) => {
          if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) {
            problems.push(`CSP (console) on ${page.url()}: ${message.text()}`)
          }
        })
      }
      context.on('page', watch)
      context.pages().forEach(watch)
      // The browser reports each violation as an event in the page; forward it here.
      await context.exposeBinding('__painelReportCsp', ({ page }, report: string) => {
        problems.push(`CSP violation on ${page.url()}: ${report}`)
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
})

export { expect }
