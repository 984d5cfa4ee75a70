import { request, type IncomingHttpHeaders } from 'node:http'

export interface ProbeAnswer {
  status: number
  headers: IncomingHttpHeaders
  /** Names and values as they came, alternating. */
  rawHeaders: string[]
  /** Bytes of the body as sent (still compressed: nothing here decodes it). */
  bodyBytes: number
}

/**
 * One plain HTTP GET on a fresh connection. Unlike fetch, it neither adds an Accept-Encoding of
 * its own nor decodes the body, so it shows exactly what a given set of headers gets back.
 */
export function probe(
  url: string,
  headers: Record<string, string> = {},
  timeoutMs = 5_000,
): Promise<ProbeAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers, agent: false, timeout: timeoutMs }, (response) => {
      let bodyBytes = 0
      response.on('data', (chunk: Buffer) => (bodyBytes += chunk.length))
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          rawHeaders: response.rawHeaders,
          bodyBytes,
        }),
      )
      response.on('error', reject)
    })
    req.on('timeout', () => req.destroy(new Error(`no answer from ${url} in ${timeoutMs} ms`)))
    req.on('error', reject)
    req.end()
  })
}
