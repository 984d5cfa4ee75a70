import type { FastifyBaseLogger } from 'fastify'
import fp from 'fastify-plugin'

/**
 * Why the server refused a request under load or at a limit (docs/operations.md, "Under load"):
 * - `queue_full`: the API's queue would have kept it waiting longer than QUEUE_WAIT_MS (503, at once);
 * - `queue_timeout`: it waited QUEUE_WAIT_MS in that queue without its turn (503);
 * - `event_loop`: the event loop itself was late by more than the load-shedding limit (503);
 * - `hashing_busy`: too many sign-ins waiting for a password hash (503, accounts/hashing-queue.ts);
 * - `estimator_busy`: too many passwords waiting for the strength meter
 *   (503, features/password-strength/strength-estimator.ts);
 * - `draining`: the server is shutting down (503, http/drain.ts);
 * - `request_timeout`: a client too slow to send its request (408, http/client-errors.ts);
 * - `service_unavailable`: any other 503 (the database could not write, an API_UPSTREAM's 503).
 * The part that refuses names the reason: on the request (`request.refusal`) when it answers
 * itself, on the error it throws (`refusal`, as HttpError carries it) otherwise.
 */
export const REFUSAL_REASONS = [
  'queue_full',
  'queue_timeout',
  'event_loop',
  'hashing_busy',
  'estimator_busy',
  'draining',
  'request_timeout',
  'service_unavailable',
] as const
export type RefusalReason = (typeof REFUSAL_REASONS)[number] | (string & {})

/** How often, while refusals go on, the log sums them up. */
export const REFUSAL_SUMMARY_MS = 10_000

/**
 * Every refusal, counted once: for the metrics (painel_refusals_total, which listen here) and for
 * the log at `warn`, the level an operator watches. One line per refused request would be
 * thousands a second under a flood, so the first refusal is logged at once and the rest summed
 * up every REFUSAL_SUMMARY_MS while they go on; when a whole interval passes without one, a last
 * line (info) says refusing has stopped. Each refused request still has its own access-log line
 * (info) with its request id.
 */
export class Refusals {
  private readonly listeners: ((reason: RefusalReason) => void)[] = []
  private counts = new Map<RefusalReason, number>()
  private timer: NodeJS.Timeout | null = null
  private episodeTotal = 0
  private episodeStarted = 0

  constructor(
    /** The app's logger (a function: the counter exists before the app that logs). */
    private readonly logger: () => FastifyBaseLogger,
    private readonly summaryMs = REFUSAL_SUMMARY_MS,
  ) {}

  private get log(): FastifyBaseLogger {
    return this.logger()
  }

  /** Called with each refusal's reason (the metrics' counter). */
  onRefusal(listener: (reason: RefusalReason) => void): void {
    this.listeners.push(listener)
  }

  count(reason: RefusalReason, details: Record<string, unknown> = {}): void {
    for (const listener of this.listeners) listener(reason)
    this.episodeTotal += 1
    if (this.timer === null) {
      this.episodeStarted = Date.now()
      this.log.warn(
        { refusal: reason, ...details },
        `refusing requests (${describe(reason)}); a count follows every ${this.summaryMs / 1000} s while it lasts`,
      )
      this.timer = setInterval(() => this.summarise(), this.summaryMs).unref()
      return
    }
    this.counts.set(reason, (this.counts.get(reason) ?? 0) + 1)
  }

  /** The count since the last one (the timer calls it; tests may too). */
  summarise(): void {
    if (this.counts.size === 0) {
      if (this.timer !== null) clearInterval(this.timer)
      this.timer = null
      if (this.episodeTotal > 0) {
        this.log.info(
          {
            refused: this.episodeTotal,
            seconds: Math.round((Date.now() - this.episodeStarted) / 1000),
          },
          `no longer refusing requests: ${this.episodeTotal} refused in all`,
        )
      }
      this.episodeTotal = 0
      return
    }
    const refused = Object.fromEntries(this.counts)
    const total = [...this.counts.values()].reduce((sum, count) => sum + count, 0)
    this.log.warn(
      { refused },
      `refused ${total} more request(s): ${[...this.counts]
        .map(([reason, count]) => `${count} ${describe(reason)}`)
        .join(', ')}`,
    )
    this.counts = new Map()
  }

  stop(): void {
    if (this.timer !== null) clearInterval(this.timer)
    this.timer = null
  }
}

function describe(reason: RefusalReason): string {
  switch (reason) {
    case 'queue_full':
      return '503: the API queue was longer than QUEUE_WAIT_MS'
    case 'queue_timeout':
      return '503: waited QUEUE_WAIT_MS in the API queue'
    case 'event_loop':
      return '503: the event loop was late'
    case 'hashing_busy':
      return '503: too many sign-ins waiting for a password hash'
    case 'estimator_busy':
      return '503: too many passwords waiting for the strength meter'
    case 'draining':
      return '503: shutting down'
    case 'request_timeout':
      return '408: a client too slow to send its request'
    case 'service_unavailable':
      return '503: the server could not serve it (storage, or the API upstream)'
    default:
      return `503 ${reason}`
  }
}

/** The reason a thrown error names (HttpError's `refusal`), whatever answers it. */
function refusalOf(error: unknown): RefusalReason | null {
  const reason = (error as { refusal?: unknown } | null)?.refusal
  return typeof reason === 'string' ? reason : null
}

/**
 * Counts every 503 the app answers, under the reason the part that refused named: on the request
 * (`request.refusal`: the drain, load shedding) or on the error it threw (the queues' and the
 * password meter's, read in onError, which runs before any error handler, the API's or
 * /scim/v2's own); a 503 nothing named is `service_unavailable`.
 */
export default fp<{ refusals: Refusals }>(
  async (app, { refusals }) => {
    app.decorateRequest('refusal', null)
    app.addHook('onError', (request, _reply, error, done) => {
      request.refusal ??= refusalOf(error)
      done()
    })
    // Callback style: it runs on every answer, static files included (request-id.ts says why).
    app.addHook('onSend', (request, reply, payload, done) => {
      if (reply.statusCode === 503)
        refusals.count(request.refusal ?? 'service_unavailable', { reqId: request.id })
      done(null, payload)
    })
    app.addHook('onClose', async () => refusals.stop())
  },
  { name: 'refusals' },
)

declare module 'fastify' {
  interface FastifyRequest {
    /** Why this request is refused, set by the part that refuses it (http/refusals.ts). */
    refusal: RefusalReason | null
  }
}
