import underPressure from '@fastify/under-pressure'
import fp from 'fastify-plugin'
import { apiMessages } from './messages'
import { errorBody } from './errors'

export interface LoadSheddingOptions {
  /** Event-loop delay above which requests are refused (ms). */
  maxEventLoopDelay: number
  /** How often the load is measured (ms). */
  sampleInterval: number
  /** The clock of the start-up grace below (tests hold it still). */
  now?: () => number
}

export const DEFAULT_LOAD_SHEDDING: LoadSheddingOptions = {
  maxEventLoopDelay: 1000,
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
  async (app, { now = () => performance.now(), ...options }) => {
    // The delay is measured from this plugin's registration on, so the first window judged after
    // start-up holds start-up's own long turns (building the routes and the API document, the
    // migrations): on a busy machine its mean passed 1 s, and the first requests a new server
    // got were refused as "sobrecarregado" with nothing yet to be overloaded by. Event-loop
    // pressure counts once the server has been ready for two windows: by then a whole window
    // has been measured after start-up.
    let readyAt = Infinity
    app.addHook('onReady', async () => {
      readyAt = now()
    })
    const startingUp = () => now() - readyAt < 2 * options.sampleInterval
    await app.register(underPressure, {
      ...options,
      // The signal is the event loop's delay (answers are late), not its utilisation: a server
      // answering a burst as fast as it can is ~100% utilised while each answer still takes a
      // few ms. With a 0.98 utilisation limit, `npm run bench` got most of its requests to /
      // refused while p99 stayed under 10 ms (operations.test.ts keeps that from coming back).
      pressureHandler: (request, reply, type, value) => {
        if (request.routeOptions.config.underPressureExempt) return
        if (type === 'eventLoopDelay' && startingUp()) return
        // Counted and logged at warn, summed up, by http/refusals.ts; this request's own line is info.
        request.refusal = 'event_loop'
        request.log.info({ type, value }, 'under pressure: refusing the request')
        void reply
          .code(503)
          .header('retry-after', String(RETRY_AFTER_SECONDS))
          .send(errorBody('service_unavailable', apiMessages.overloaded))
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
