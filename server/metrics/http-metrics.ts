import fp from 'fastify-plugin'
import type { PanelMetrics } from './panel-metrics'

/** The routes that sign someone in: their answers are counted by outcome. */
const SIGN_IN_ROUTES = new Set(['/api/auth/login', '/api/auth/login/mfa', '/api/auth/passkey'])

/** The outcome of a sign-in answer: its error code, or what a 200 carried. */
export function signInOutcome(status: number, payload: unknown): string {
  const text = typeof payload === 'string' ? payload : ''
  if (status === 200) return text.includes('"mfa"') ? 'second_factor_required' : 'signed_in'
  const code = /"code"\s*:\s*"([a-z_]{1,40})"/.exec(text)?.[1]
  return code ?? `status_${status}`
}

/**
 * Counts and times every answer (a stream held open is counted, not timed) by its route's pattern (`/api/staff/:id/status`, never the URL
 * itself, which would make a series per id), and sign-ins by outcome. A URL no route matched
 * counts as `unmatched`.
 */
export default fp<{ metrics: PanelMetrics }>(
  async (app, { metrics }) => {
    app.addHook('onSend', (request, reply, payload, done) => {
      if (request.method === 'POST' && SIGN_IN_ROUTES.has(request.routeOptions.url ?? '')) {
        const outcome = signInOutcome(reply.statusCode, payload)
        metrics.signIns.labels(outcome).inc()
        if (outcome === 'too_many_attempts') metrics.lockouts.inc()
      }
      done(null, payload)
    })
    app.addHook('onResponse', (request, reply, done) => {
      const labels = [
        request.method,
        request.routeOptions.url ?? 'unmatched',
        String(reply.statusCode),
      ] as const
      metrics.httpRequests.labels(...labels).inc()
      // A stream held open for minutes is no slow answer (the "slow API" alert reads this).
      if (!request.routeOptions.config.heldOpen) {
        metrics.httpDuration.labels(...labels).observe(reply.elapsedTime / 1000)
      }
      done()
    })
  },
  { name: 'http-metrics' },
)
