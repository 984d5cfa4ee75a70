import type { Page } from '@playwright/test'

export interface NetworkEntry {
  path: string
  status: number
  /** Answered from the browser's cache without going to the server. */
  fromCache: boolean
  /** Bytes received over the wire for it (headers and compressed body). */
  wireBytes: number
}

/**
 * What the browser really fetched, as Chromium's DevTools protocol reports it: unlike
 * Playwright's response events, it tells a cached answer from a network one and gives the
 * bytes on the wire and the true status of a revalidation (304).
 */
export async function recordNetwork(
  page: Page,
): Promise<{ entries: () => NetworkEntry[]; clear: () => void }> {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Network.enable')
  const byId = new Map<string, NetworkEntry>()
  cdp.on('Network.responseReceived', (event) => {
    const url = new URL(event.response.url)
    if (!url.protocol.startsWith('http')) return
    byId.set(event.requestId, {
      path: url.pathname,
      status: event.response.status,
      fromCache: Boolean(event.response.fromDiskCache || event.response.fromPrefetchCache),
      wireBytes: 0,
    })
  })
  // For a revalidation the response above is the cached one (200); the status that really came
  // over the wire (304) is in the extra info.
  const wireStatus = new Map<string, number>()
  cdp.on('Network.responseReceivedExtraInfo', (event) => {
    wireStatus.set(event.requestId, event.statusCode)
  })
  // This event may come before or after the response: remember it by id.
  const servedFromCache = new Set<string>()
  cdp.on('Network.requestServedFromCache', (event) => {
    servedFromCache.add(event.requestId)
  })
  cdp.on('Network.loadingFinished', (event) => {
    const entry = byId.get(event.requestId)
    if (entry) entry.wireBytes = event.encodedDataLength
  })
  return {
    entries: () =>
      [...byId.entries()].map(([id, entry]) => ({
        ...entry,
        status: wireStatus.get(id) ?? entry.status,
        fromCache: entry.fromCache || servedFromCache.has(id),
      })),
    clear: () => {
      byId.clear()
      wireStatus.clear()
      servedFromCache.clear()
    },
  }
}
