/**
 * The overload section's load, run as a process of its own so that the bench can put it at the
 * lowest priority (nice 19) on the server's two cores: `connections` clients, each on one
 * kept-alive connection, each sending its next request as soon as the last one is answered and
 * ignoring Retry-After (a hostile load, not a polite one). Requests go round the mix: the Equipe
 * list (`GET /api/staff`), the Auditoria log (`GET /api/audit`), and sign-ins.
 *
 * Sign-ins come each from another address (X-Forwarded-For, trusted from loopback in this
 * section), so that the per-address limits do not answer them all with a 429; most are a seeded
 * person with the right password, one in `wrongEvery` a wrong password.
 *
 * One client in ten opens a new connection for each request (many real clients do, and a new
 * connection is where Node's headers clock used to start too early: server/http/client-errors.ts).
 *
 * Input: one JSON argument (OverloadLoad). Output: `loading` as it starts, then one JSON line on
 * stdout (OverloadOutcome): every answer's route, status and time, summarised.
 */
import { Agent, request } from 'node:http'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { latencyFigures, type LatencyFigures } from './read-probe'

export interface OverloadLoad {
  baseURL: string
  connections: number
  durationSeconds: number
  /** The admin's bearer token for the reads. */
  token: string
  signInEmails: string[]
  signInPassword: string
  wrongEvery: number
}

export const ROUTES = ['GET /api/staff', 'GET /api/audit', 'POST /api/auth/login'] as const
export type LoadRoute = (typeof ROUTES)[number]

export interface OverloadOutcome {
  /** Answers by route and status; `error` and `timeout` are requests without an answer. */
  answers: Record<LoadRoute, Record<string, number>>
  /** The times of the answers by route and status class: `served` (2xx) or the status. */
  latency: Record<LoadRoute, Record<string, LatencyFigures>>
  /** 503s without a Retry-After header (should be none). */
  unavailableWithoutRetryAfter: number
  cpuMs: number
  /**
   * The generator's own event-loop delay (ms): how late, at nice 19 on a shared machine, it
   * notices an answer. Its latencies include this much of its own waiting.
   */
  ownDelay: { p50Ms: number; p99Ms: number; maxMs: number }
}

/** A request with no answer in this long counts as a timeout (well above any server limit). */
const CLIENT_TIMEOUT_MS = 60_000

const load = JSON.parse(process.argv[2] ?? '') as OverloadLoad
const started = process.cpuUsage()
const keptAlive = new Agent({ keepAlive: true, maxSockets: load.connections })
/** One client in FRESH_EVERY opens a new connection for each request, as many real clients do. */
const FRESH_EVERY = 10
const fresh = new Agent({ keepAlive: false })
const base = new URL(load.baseURL)

const answers = Object.fromEntries(ROUTES.map((route) => [route, {}])) as Record<
  LoadRoute,
  Record<string, number>
>
const times = Object.fromEntries(ROUTES.map((route) => [route, {}])) as Record<
  LoadRoute,
  Record<string, number[]>
>
let unavailableWithoutRetryAfter = 0
let sequence = 0

function requestOf(route: LoadRoute): {
  method: string
  path: string
  headers: Record<string, string>
  body?: string
} {
  if (route !== 'POST /api/auth/login') {
    const [method = 'GET', path = '/'] = route.split(' ')
    return { method, path, headers: { authorization: `Bearer ${load.token}` } }
  }
  sequence += 1
  // 10.x.y.z: 16 million addresses, each used once in a run of any plausible length.
  const address = `10.${(sequence >> 16) & 255}.${(sequence >> 8) & 255}.${sequence & 255}`
  const email = load.signInEmails[sequence % load.signInEmails.length] ?? ''
  const password = sequence % load.wrongEvery === 0 ? `errada-${sequence}` : load.signInPassword
  return {
    method: 'POST',
    path: '/api/auth/login',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
    body: JSON.stringify({ email, password }),
  }
}

function count(route: LoadRoute, outcome: string, ms: number | null) {
  answers[route][outcome] = (answers[route][outcome] ?? 0) + 1
  if (ms === null) return
  const key = outcome.startsWith('2') ? 'served' : outcome
  ;(times[route][key] ??= []).push(ms)
}

function send(route: LoadRoute, agent: Agent): Promise<void> {
  const { method, path, headers, body } = requestOf(route)
  const sentAt = performance.now()
  return new Promise((resolve) => {
    let settled = false
    const settle = (outcome: string, answered: boolean) => {
      if (settled) return
      settled = true
      count(route, outcome, answered ? performance.now() - sentAt : null)
      resolve()
    }
    const req = request(
      {
        host: base.hostname,
        port: base.port,
        method,
        path,
        agent,
        headers:
          body === undefined
            ? headers
            : { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        timeout: CLIENT_TIMEOUT_MS,
      },
      (response) => {
        response.resume()
        response.on('end', () => {
          const status = response.statusCode ?? 0
          if (status === 503 && response.headers['retry-after'] === undefined) {
            unavailableWithoutRetryAfter += 1
          }
          settle(String(status), true)
        })
        response.on('error', () => settle('error', false))
      },
    )
    req.on('timeout', () => {
      settle('timeout', false)
      req.destroy()
    })
    req.on('error', () => settle('error', false))
    req.end(body)
  })
}

async function client(index: number, until: number): Promise<void> {
  let turn = index
  const agent = index % FRESH_EVERY === 0 ? fresh : keptAlive
  while (performance.now() < until) {
    await send(ROUTES[turn % ROUTES.length]!, agent)
    turn += 1
  }
}

const ownDelay = monitorEventLoopDelay({ resolution: 10 })
ownDelay.enable()
// The bench starts probing /healthz on this line.
process.stdout.write('loading\n')
const until = performance.now() + load.durationSeconds * 1000
await Promise.all(Array.from({ length: load.connections }, (_, index) => client(index, until)))
keptAlive.destroy()
fresh.destroy()

const cpu = process.cpuUsage(started)
const outcome: OverloadOutcome = {
  answers,
  latency: Object.fromEntries(
    ROUTES.map((route) => [
      route,
      Object.fromEntries(
        Object.entries(times[route]).map(([key, values]) => [key, latencyFigures(values)]),
      ),
    ]),
  ) as OverloadOutcome['latency'],
  unavailableWithoutRetryAfter,
  cpuMs: Math.round((cpu.user + cpu.system) / 1000),
  ownDelay: {
    p50Ms: Math.round(ownDelay.percentile(50) / 1e6),
    p99Ms: Math.round(ownDelay.percentile(99) / 1e6),
    maxMs: Math.round(ownDelay.max / 1e6),
  },
}
process.stdout.write(`${JSON.stringify(outcome)}\n`)
