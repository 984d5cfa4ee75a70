import underPressure from '@fastify/under-pressure'
import fp from 'fastify-plugin'
import { errorBody } from './errors'

export interface LoadSheddingOptions {
  /** Event-loop delay above which requests are refused (ms). */
  maxEventLoopDelay: number
  /** Event-loop utilisation above which requests are refused (0..1). */
  maxEventLoopUtilization: number
  /** How often the load is measured (ms). */
  sampleInterval: number
}

export const DEFAULT_LOAD_SHEDDING: LoadSheddingOptions = {
  maxEventLoopDelay: 1000,
  maxEventLoopUtilization: 0.98,
  sampleInterval: 1000,
}

/** What a refused client is told to wait before trying again (seconds). */
export const RETRY_AFTER_SECONDS = 10

/**
 * Load shedding: when the event loop is saturated, answering late helps nobody, so new requests
 * get a quick 503 with Retry-After (a load balancer sends them elsewhere, a browser retries)
 * while the requests already running finish. /healthz is exempt: a busy process is alive, and an
 * orchestrator that restarted it for being busy would only make things worse.
 */
export default fp<LoadSheddingOptions>(
  async (app, options) => {
    await app.register(underPressure, {
      ...options,
      // Utilisation over the last interval, not since start: the embedded database's start-up
      // keeps the loop busy for seconds, and a cumulative figure would refuse every request for
      // a long while after a perfectly normal start.
      eventLoopUtilizationMode: 'interval',
      pressureHandler: (request, reply, type, value) => {
        if (request.routeOptions.config.underPressureExempt) return
        request.log.warn({ type, value }, 'under pressure: refusing the request')
        void reply
          .code(503)
          .header('retry-after', String(RETRY_AFTER_SECONDS))
          .send(
            errorBody(
              'service_unavailable',
              'O servidor está sobrecarregado. Tente novamente em alguns segundos.',
            ),
          )
      },
    })
  },
  { name: 'load-shedding' },
)

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Answered even when the server sheds load (liveness). */
    underPressureExempt?: boolean
  }
}
