/**
 * The sign-in flood of the flood section, run as a process of its own so that the bench can
 * lower its priority: on a 2-core machine a generator at the server's priority takes half the
 * CPU, and what /healthz shows is then the machine's, not the server's.
 *
 * Input: one JSON argument (FloodSettings). Output: `flooding` as it starts, then one JSON line
 * on stdout (FloodOutcome).
 *
 * Every request comes from another address (X-Forwarded-For, which the server trusts from
 * loopback in this section) and, but for every `accountEvery`-th one, for another unknown
 * e-mail: the per-address and per-account sign-in limits would otherwise answer almost all of
 * it with a 429 before any password is hashed, and the point is to load the hashing.
 */
import autocannon from 'autocannon'

export interface FloodSettings {
  baseURL: string
  connections: number
  durationSeconds: number
  /** An existing account: every `accountEvery`-th request tries a wrong password on it. */
  accountEmail: string
  accountEvery: number
}

export interface FloodOutcome {
  requests: number
  errors: number
  timeouts: number
  statusCodes: Record<string, number>
  latencyP50Ms: number
  latencyP99Ms: number
  cpuMs: number
}

const settings = JSON.parse(process.argv[2] ?? '') as FloodSettings
const started = process.cpuUsage()

let sequence = 0
function nextAttempt(): { email: string; address: string } {
  sequence += 1
  // 10.x.y.z: 16 million addresses, each used once in a run of any plausible length.
  const address = `10.${(sequence >> 16) & 255}.${(sequence >> 8) & 255}.${sequence & 255}`
  const email =
    sequence % settings.accountEvery === 0
      ? settings.accountEmail
      : `flood-${process.pid}-${sequence}@painel.test`
  return { email, address }
}

// The bench starts probing /healthz on this line.
process.stdout.write('flooding\n')
const result = await autocannon({
  url: settings.baseURL,
  connections: settings.connections,
  duration: settings.durationSeconds,
  timeout: 10,
  requests: [
    {
      method: 'POST',
      path: '/api/auth/login',
      setupRequest: (request) => {
        const { email, address } = nextAttempt()
        return {
          ...request,
          headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
          body: JSON.stringify({ email, password: `wrong-${sequence}-password` }),
        }
      },
    },
  ],
})

const cpu = process.cpuUsage(started)
const outcome: FloodOutcome = {
  requests: result.requests.total,
  errors: result.errors,
  timeouts: result.timeouts,
  statusCodes: Object.fromEntries(
    Object.entries(result.statusCodeStats).map(([code, stats]) => [code, stats.count]),
  ),
  latencyP50Ms: result.latency.p50,
  latencyP99Ms: result.latency.p99,
  cpuMs: Math.round((cpu.user + cpu.system) / 1000),
}
process.stdout.write(`${JSON.stringify(outcome)}\n`)
