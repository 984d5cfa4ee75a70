import { Agent, request, type IncomingHttpHeaders } from 'node:http'
import { sleep } from './stats'

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

/** One answer of `probeEvery`: its status (`error`: none, or not within the timeout) and time. */
export interface PacedAnswer {
  status: string
  ms: number
}

/** One GET on the agent's connection. */
function getOnce(
  url: string,
  agent: Agent,
  timeoutMs: number,
  headers: Record<string, string>,
): Promise<PacedAnswer> {
  const started = performance.now()
  return new Promise((resolve) => {
    const answered = (status: string) => resolve({ status, ms: performance.now() - started })
    const req = request(url, { agent, timeout: timeoutMs, headers }, (response) => {
      response.resume()
      response.on('end', () => answered(String(response.statusCode)))
      response.on('error', () => answered('error'))
    })
    req.on('timeout', () => req.destroy(new Error('timeout')))
    req.on('error', () => answered('error'))
    req.end()
  })
}

/**
 * GETs `url` every `intervalMs` on one kept-alive connection, as an orchestrator's probe or a
 * person at the panel sends requests, until `until` settles (or for `until` seconds). Each request
 * is sent on the tick it was due: a late answer delays the next one rather than piling requests up.
 */
export async function probeEvery(
  url: string,
  options: { intervalMs: number; timeoutMs: number; headers?: Record<string, string> },
  until: Promise<unknown> | number,
  onAnswer: (answer: PacedAnswer) => void,
): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  let done = false
  const deadline = typeof until === 'number' ? performance.now() + until * 1000 : Infinity
  // Either way: a load that failed ends the probing too (its caller reports the error).
  const stop = () => (done = true)
  if (typeof until !== 'number') until.then(stop, stop)
  try {
    while (!done && performance.now() < deadline) {
      const tick = performance.now()
      onAnswer(await getOnce(url, agent, options.timeoutMs, options.headers ?? {}))
      await sleep(Math.max(0, options.intervalMs - (performance.now() - tick)))
    }
  } finally {
    agent.destroy()
  }
}
