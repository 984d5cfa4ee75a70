/**
 * A well-behaved reader beside the overload section's hostile load: one Equipe and one Auditoria
 * read every PROBE_READ_INTERVAL_MS, each on one kept-alive connection, from the bench process
 * (at the server's priority), as a person at the panel would send them. Its requests meet the
 * same queue as the load's, so what it gets is what a person gets; and its clock is read on
 * time. The load generator runs at nice 19 on a machine it shares: it can take seconds to get a
 * CPU and notice an answer, and its own latencies include that wait (both are printed).
 */
import { probeEvery } from './http-probe'
import { percentile, round } from './stats'

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
  return {
    count: sorted.length,
    p50Ms: round(percentile(sorted, 0.5), 1),
    p99Ms: round(percentile(sorted, 0.99), 1),
    maxMs: round(sorted.at(-1) ?? 0, 1),
  }
}

async function probePath(url: string, token: string, until: Promise<unknown>): Promise<ReadProbe> {
  const answers: Record<string, number> = {}
  const served: number[] = []
  const refused: number[] = []
  await probeEvery(
    url,
    {
      intervalMs: PROBE_READ_INTERVAL_MS,
      timeoutMs: PROBE_TIMEOUT_MS,
      headers: { authorization: `Bearer ${token}` },
    },
    until,
    ({ status, ms }) => {
      answers[status] = (answers[status] ?? 0) + 1
      if (status.startsWith('2')) served.push(ms)
      else if (status === '503') refused.push(ms)
    },
  )
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
