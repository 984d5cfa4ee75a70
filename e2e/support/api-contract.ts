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
 * When each page next asks for a new document (a reload, a navigation) or closes: a promise per
 * page, settled then and replaced by the next one. A change of hash route asks for no document
 * and does not count.
 */
function documentChanges(context: BrowserContext) {
  const next = new Map<Page, { changed: Promise<null>; settle: () => void }>()
  const current = (page: Page) => {
    let entry = next.get(page)
    if (!entry) {
      let settle = () => {}
      const changed = new Promise<null>((resolve) => (settle = () => resolve(null)))
      entry = { changed, settle }
      next.set(page, entry)
    }
    return entry
  }
  const change = (page: Page) => {
    next.get(page)?.settle()
    next.delete(page)
  }
  const watchClose = (page: Page) => page.on('close', () => change(page))
  context.pages().forEach(watchClose)
  context.on('page', watchClose)
  context.on('request', (request) => {
    if (!request.isNavigationRequest()) return
    try {
      const page = request.frame().page()
      if (request.frame() === page.mainFrame()) change(page)
    } catch {
      // A service worker's request: no page.
    }
  })
  return {
    /** Settles at the first new document of the request's page after it was sent. */
    after(request: Request): Promise<null> | null {
      try {
        return current(request.frame().page()).changed
      } catch {
        return null // a service worker's request: no page to leave
      }
    },
  }
}

/**
 * The answer's body, or null once the page that asked for it has asked for a new document (a
 * reload while Início's lists load) or closed: an answer cut short there never finishes, and
 * waiting for it held the fixture's teardown until it timed out. What counts is a new document
 * after the request was sent (`pageLeft`, taken when it was): one asked for before its answer's
 * first bytes came is missed by a watch begun at the answer, and held a teardown 30 s (CI, a
 * reload just after a sign-out in e2e/sign-in.spec.ts). Null too when the body is gone with its
 * page (read after a navigation): the exchange is then left out, as an empty body against a
 * schema would be a false report.
 */
async function bodyWhilePageStays(
  response: Response,
  pageLeft: Promise<null> | null,
): Promise<string | null> {
  try {
    return await (pageLeft ? Promise.race([response.text(), pageLeft]) : response.text())
  } catch {
    return null
  }
}

async function exchangeOf(
  response: Response,
  pageLeft: Promise<null> | null,
): Promise<Exchange | null> {
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
  const responseBody = stream ? '' : await bodyWhilePageStays(response, pageLeft)
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
  const documents = documentChanges(context)
  const leaving = new WeakMap<Request, Promise<null> | null>()
  context.on('request', (request) => {
    if (request.url().startsWith(`${origin}/api/`)) leaving.set(request, documents.after(request))
  })
  context.on('response', (response) => {
    if (!response.url().startsWith(`${origin}/api/`)) return
    pending.push(exchangeOf(response, leaving.get(response.request()) ?? null))
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
