import fp from 'fastify-plugin'
import { HEALTH_PATH } from './health-path'

export interface HealthOptions {
  /** Whether what the API needs (the database, or the upstream backend) answers now. */
  isReady: () => Promise<boolean>
}

/**
 * Liveness (/healthz) and readiness (/readyz) for load balancers and orchestrators.
 * - /healthz: the process serves requests. Cheap, touches nothing else: a failing database must
 *   not get healthy containers restarted.
 * - /readyz: the process can do its job: the database (or the API upstream) answers. A load
 *   balancer sends no traffic while it is 503.
 */
export default fp<HealthOptions>(
  async (app, { isReady }) => {
    app.get(
      HEALTH_PATH,
      { logLevel: 'warn', config: { underPressureExempt: true } },
      async (_request, reply) => {
        reply.header('cache-control', 'no-store')
        return { status: 'ok' }
      },
    )

    app.get('/readyz', { logLevel: 'warn' }, async (_request, reply) => {
      reply.header('cache-control', 'no-store')
      if (await isReady()) return { status: 'ready' }
      return reply.code(503).send({ status: 'unavailable' })
    })
  },
  { name: 'health' },
)
