import fp from 'fastify-plugin'

/** Liveness for load balancers and the container's HEALTHCHECK: cheap, touches nothing else. */
export default fp(
  async (app) => {
    app.get('/healthz', { logLevel: 'warn' }, async (_request, reply) => {
      reply.header('cache-control', 'no-store')
      return { status: 'ok' }
    })
  },
  { name: 'health' },
)
