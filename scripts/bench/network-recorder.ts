import type { Page } from '@playwright/test'

export interface RequestRecord {
  method: string
  path: string
  /** The status that came over the wire: 304 for a revalidation, not the cached 200. */
  status: number
  /** Answered from the browser's cache (memory or disk) without going to the server. */
  fromCache: boolean
  /** Bytes received over the wire (headers and still-compressed body); 0 from the cache. */
  wireBytes: number
  failed: boolean
}

/**
 * Every HTTP request of a page, as Chromium's DevTools protocol reports it: unlike Playwright's
 * response events, it tells a cached answer from a network one, and gives the bytes on the wire
 * and the true status of a revalidation. One CDP session both records and, for cold loads,
 * disables the cache. The benchmarks and the e2e suites (serving.spec.ts) share it.
 */
export async function recordNetwork(page: Page, { cacheDisabled }: { cacheDisabled: boolean }) {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Network.enable')
  await cdp.send('Network.setCacheDisabled', { cacheDisabled })

  const byId = new Map<string, RequestRecord>()
  const wireStatus = new Map<string, number>()
  const servedFromCache = new Set<string>()

  cdp.on('Network.requestWillBeSent', (event) => {
    const url = new URL(event.request.url)
    if (!url.protocol.startsWith('http')) return
    byId.set(event.requestId, {
      method: event.request.method,
      path: url.pathname,
      status: 0,
      fromCache: false,
      wireBytes: 0,
      failed: false,
    })
  })
  cdp.on('Network.responseReceived', (event) => {
    const record = byId.get(event.requestId)
    if (!record) return
    record.status = event.response.status
    if (event.response.fromDiskCache || event.response.fromPrefetchCache) record.fromCache = true
  })
  // For a revalidation the response above is the cached one (200); the status that really came
  // over the wire (304) is in the extra info.
  cdp.on('Network.responseReceivedExtraInfo', (event) => {
    wireStatus.set(event.requestId, event.statusCode)
  })
  // It may come before or after the response: remembered by id.
  cdp.on('Network.requestServedFromCache', (event) => {
    servedFromCache.add(event.requestId)
  })
  cdp.on('Network.loadingFinished', (event) => {
    const record = byId.get(event.requestId)
    if (record) record.wireBytes = event.encodedDataLength
  })
  cdp.on('Network.loadingFailed', (event) => {
    const record = byId.get(event.requestId)
    if (record) record.failed = true
  })

  return {
    records: (): RequestRecord[] =>
      [...byId.entries()].map(([id, record]) => ({
        ...record,
        status: wireStatus.get(id) ?? record.status,
        fromCache: record.fromCache || servedFromCache.has(id),
      })),
    clear: () => {
      byId.clear()
      wireStatus.clear()
      servedFromCache.clear()
    },
    detach: () => cdp.detach(),
  }
}
