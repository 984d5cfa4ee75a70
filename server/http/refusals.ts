import type { FastifyBaseLogger } from 'fastify'
import fp from 'fastify-plugin'

/**
 * Why the server refused a request under load or at a limit (docs/operations.md, "Under load"):
 * - `queue_full`: the API's queue would have kept it waiting longer than QUEUE_WAIT_MS (503, at once);
 * - `queue_timeout`: it waited QUEUE_WAIT_MS in that queue without its turn (503);
 * - `event_loop`: the event loop itself was late by more than the load-shedding limit (503);
 * - `hashing_busy`: too many sign-ins waiting for a password hash (503, accounts/hashing-queue.ts);
 * - `draining`: the server is shutting down (503, http/drain.ts);
 * - `request_timeout`: a client too slow to send its request (408, http/client-errors.ts);
 * - any other 503 by its error code (`service_unavailable`: the database could not write).
 */
export const REFUSAL_REASONS = [
  'queue_full',
  'queue_timeout',
  'event_loop',
  'hashing_busy',
  'draining',
  'request_timeout',
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
    case 'draining':
      return '503: shutting down'
    case 'request_timeout':
      return '408: a client too slow to send its request'
    default:
      return `503 ${reason}`
  }
}

/** What a 503's body names as its code, for a refusal no component named (a storage failure). */
function codeOf(payload: unknown): string {
  const text = typeof payload === 'string' ? payload : ''
  return /"code"\s*:\s*"([a-z_]{1,40})"/.exec(text)?.[1] ?? 'unavailable'
}

/**
 * Counts every 503 the app answers. The part that refuses names its reason on the request
 * (`request.refusal`); a 503 thrown as an error (the hashing queue's, a storage failure's) is
 * known by its code.
 */
export default fp<{ refusals: Refusals }>(
  async (app, { refusals }) => {
    app.decorateRequest('refusal', null)
    // Callback style: it runs on every answer, static files included (request-id.ts says why).
    app.addHook('onSend', (request, reply, payload, done) => {
      if (reply.statusCode === 503) {
        const reason = request.refusal ?? codeOf(payload)
        refusals.count(reason === 'server_busy' ? 'hashing_busy' : reason, { reqId: request.id })
      }
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
