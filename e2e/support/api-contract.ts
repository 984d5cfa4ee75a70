import type { APIRequestContext, BrowserContext, Page, Request, Response } from '@playwright/test'
import {
  ContractChecker,
  describeExchange,
  type Exchange,
} from '../../server/test/contract-checker'

/**
 * The panel's own /api exchanges during a suite, compared with the OpenAPI document the panel
 * serves (the same independent checker the server tests use, server/test/contract-checker.ts):
 * what the browser really sent and got, not what a test thought to send.
 */

/** One document per panel and worker: fetching and compiling it takes a while. */
const checkers = new Map<string, Promise<ContractChecker | null>>()

function checkerFor(api: APIRequestContext, baseURL: string): Promise<ContractChecker | null> {
  let checker = checkers.get(baseURL)
  if (!checker) {
    checker = (async () => {
      const document = await api.get('/api/openapi.json')
      // A panel in front of another backend (API_UPSTREAM) has no document of its own.
      return document.ok() ? ContractChecker.create(await document.json()) : null
    })()
    checkers.set(baseURL, checker)
  }
  return checker
}

/**
 * The answer's body, or null once the page that asked for it has asked for a new document (a
 * reload while Início's lists load) or closed: an answer cut short there never finishes, and
 * waiting for it held the fixture's teardown until it timed out. A change of hash route asks for
 * no document and does not count. Null too when the body is gone with its page (read after a
 * navigation): the exchange is then left out, as an empty body against a schema would be a
 * false report.
 */
async function bodyWhilePageStays(response: Response): Promise<string | null> {
  let page: Page
  try {
    page = response.frame().page()
  } catch {
    return response.text().catch(() => null) // a service worker's request: no page to leave
  }
  let left = () => {}
  const leaves = new Promise<null>((resolve) => (left = () => resolve(null)))
  const newDocument = (request: Request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) left()
  }
  page.on('request', newDocument)
  page.on('close', left)
  try {
    return await Promise.race([response.text(), leaves])
  } catch {
    return null
  } finally {
    page.off('request', newDocument)
    page.off('close', left)
  }
}

async function exchangeOf(response: Response): Promise<Exchange | null> {
  const url = new URL(response.url())
  // Answers a test made up with page.route() carry no request id: only the server's are checked.
  if (!url.pathname.startsWith('/api/') || response.headers()['x-request-id'] === undefined) {
    return null
  }
  const request = response.request()
  const sent = request.postData()
  let body: unknown = undefined
  if (sent !== null) {
    try {
      body = JSON.parse(sent)
    } catch {
      body = sent
    }
  }
  // A stream of events stays open while its page does: its status and headers are compared,
  // its body (a string to the document) is not waited for.
  const stream = response.headers()['content-type']?.startsWith('text/event-stream')
  const responseBody = stream ? '' : await bodyWhilePageStays(response)
  if (responseBody === null) return null
  return {
    method: request.method(),
    url: url.pathname + url.search,
    headers: request.headers(),
    body,
    status: response.status(),
    responseBody,
  }
}

/** ContractChecker's words for a request the document refuses (server/test/contract-checker.ts). */
const REQUEST_INVALID = 'the document calls this request invalid'

/** Records the context's /api exchanges; `check()` compares them once the test is done. */
export function recordApiExchanges(
  context: BrowserContext,
  api: APIRequestContext,
  baseURL: string,
  { requestBodies = true }: { requestBodies?: boolean } = {},
) {
  const origin = new URL(baseURL).origin
  const pending: Promise<Exchange | null>[] = []
  context.on('response', (response) => {
    if (response.url().startsWith(`${origin}/api/`)) pending.push(exchangeOf(response))
  })
  return {
    /** How many exchanges were compared, and what differed. */
    async check(): Promise<{ checked: number; violations: string[] }> {
      const exchanges = (await Promise.all(pending)).filter((exchange) => exchange !== null)
      const checker = exchanges.length === 0 ? null : await checkerFor(api, baseURL)
      if (!checker) return { checked: 0, violations: [] }
      const violations = exchanges.flatMap((exchange) => {
        const problems = checker
          .check(exchange)
          .filter((problem) => requestBodies || !problem.startsWith(REQUEST_INVALID))
        return problems.length === 0
          ? []
          : [`${problems.join('; ')}\n  ${describeExchange(exchange)}`]
      })
      return { checked: exchanges.length, violations }
    },
  }
}
