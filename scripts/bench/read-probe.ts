/**
 * A well-behaved reader beside the overload section's hostile load: one Equipe and one Auditoria
 * read every PROBE_READ_INTERVAL_MS, each on one kept-alive connection, from the bench process
 * (at the server's priority), as a person at the panel would send them. Its requests meet the
 * same queue as the load's, so what it gets is what a person gets; and its clock is read on
 * time. The load generator runs at nice 19 on a machine it shares: it can take seconds to get a
 * CPU and notice an answer, and its own latencies include that wait (both are printed).
 */
import { Agent, request } from 'node:http'
import { sleep } from './stats'

export const PROBE_READ_INTERVAL_MS = 100
const PROBE_TIMEOUT_MS = 60_000

export interface ReadProbe {
  answers: Record<string, number>
  /** Answers 2xx. */
  served: LatencyFigures
  /** Answers 503. */
  refused: LatencyFigures
}

export interface LatencyFigures {
  count: number
  p50Ms: number
  p99Ms: number
  maxMs: number
}

export function latencyFigures(values: number[]): LatencyFigures {
  const sorted = [...values].sort((a, b) => a - b)
  const at = (fraction: number) =>
    sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] ?? 0
  const round = (value: number) => Math.round(value * 10) / 10
  return {
    count: sorted.length,
    p50Ms: round(at(0.5)),
    p99Ms: round(at(0.99)),
    maxMs: round(sorted.at(-1) ?? 0),
  }
}

function readOnce(
  url: string,
  token: string,
  agent: Agent,
): Promise<{ status: string; ms: number }> {
  const started = performance.now()
  return new Promise((resolve) => {
    const req = request(
      url,
      { agent, timeout: PROBE_TIMEOUT_MS, headers: { authorization: `Bearer ${token}` } },
      (response) => {
        response.resume()
        response.on('end', () =>
          resolve({ status: String(response.statusCode), ms: performance.now() - started }),
        )
        response.on('error', () => resolve({ status: 'error', ms: performance.now() - started }))
      },
    )
    req.on('timeout', () => req.destroy(new Error('timeout')))
    req.on('error', () => resolve({ status: 'error', ms: performance.now() - started }))
    req.end()
  })
}

async function probePath(url: string, token: string, until: Promise<unknown>): Promise<ReadProbe> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  const answers: Record<string, number> = {}
  const served: number[] = []
  const refused: number[] = []
  let done = false
  const stop = () => (done = true)
  until.then(stop, stop)
  try {
    while (!done) {
      const tick = performance.now()
      const { status, ms } = await readOnce(url, token, agent)
      answers[status] = (answers[status] ?? 0) + 1
      if (status.startsWith('2')) served.push(ms)
      else if (status === '503') refused.push(ms)
      await sleep(Math.max(0, PROBE_READ_INTERVAL_MS - (performance.now() - tick)))
    }
  } finally {
    agent.destroy()
  }
  return { answers, served: latencyFigures(served), refused: latencyFigures(refused) }
}

/** Probes both reads until `until` settles. */
export async function probeReads(
  baseURL: string,
  token: string,
  until: Promise<unknown>,
): Promise<Record<'GET /api/staff' | 'GET /api/audit', ReadProbe>> {
  const [staff, audit] = await Promise.all([
    probePath(`${baseURL}/api/staff`, token, until),
    probePath(`${baseURL}/api/audit`, token, until),
  ])
  return { 'GET /api/staff': staff, 'GET /api/audit': audit }
}
