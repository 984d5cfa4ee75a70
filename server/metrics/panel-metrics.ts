import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client'
import { REFUSAL_REASONS } from '../http/refusals'

/** Seconds: from a static file's fraction of a millisecond to a request near its 30 s limit. */
const DURATION_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]
const QUERY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5]

/**
 * Every metric the panel exposes (docs/operations.md, "Metrics"), in a registry of its own: an app per test
 * never meets another's counts, and nothing reaches prom-client's global registry.
 */
export class PanelMetrics {
  readonly registry = new Registry()

  readonly httpRequests = new Counter({
    name: 'painel_http_requests_total',
    help: 'Requests answered, by method, route (the pattern, not the URL) and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  })

  readonly httpDuration = new Histogram({
    name: 'painel_http_request_duration_seconds',
    help: 'Time from the request to its answer, by method, route and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: DURATION_BUCKETS,
    registers: [this.registry],
  })

  readonly signIns = new Counter({
    name: 'painel_sign_ins_total',
    help: 'Sign-in attempts by outcome (signed_in, second_factor_required, or the error code).',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  })

  readonly lockouts = new Counter({
    name: 'painel_sign_in_lockouts_total',
    help: 'Sign-in attempts refused because the account or the address is locked out (429).',
    registers: [this.registry],
  })

  readonly refusals = new Counter({
    name: 'painel_refusals_total',
    help: 'Requests refused under load or at a limit, by reason: queue_full, queue_timeout, event_loop, hashing_busy, estimator_busy, draining, service_unavailable (503s), request_timeout (408: a client too slow to send its request).',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  })

  readonly mails = new Counter({
    name: 'painel_mails_total',
    help: 'Attempts to hand a mail to SMTP (or to the log without SMTP_URL), by result: sent or failed (a failed one is retried).',
    labelNames: ['result'] as const,
    registers: [this.registry],
  })

  /** Reads the outbox's counts when scraped (watchOutbox). */
  private outboxCounts: (() => Promise<{ waiting: number; failed: number }>) | null = null
  private outboxScrape: Promise<{ waiting: number; failed: number }> | null = null

  readonly mailsWaiting = this.outboxGauge(
    'painel_mails_waiting',
    'Mails in the outbox not yet delivered (new, or waiting for a retry), in every replica.',
    'waiting',
  )

  readonly mailsFailed = this.outboxGauge(
    'painel_mails_failed',
    'Mails given up on after retrying for MAIL_RETRY_FOR (kept 30 days), in every replica.',
    'failed',
  )

  readonly queryDuration = new Histogram({
    name: 'painel_db_query_duration_seconds',
    help: 'Time of each database query, from the call to its rows.',
    buckets: QUERY_BUCKETS,
    registers: [this.registry],
  })

  /** Where the mail gauges read their counts (the database's outbox). */
  watchOutbox(counts: () => Promise<{ waiting: number; failed: number }>): void {
    this.outboxCounts = counts
  }

  private outboxGauge(name: string, help: string, state: 'waiting' | 'failed') {
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const metrics = this
    return new Gauge({
      name,
      help,
      registers: [this.registry],
      async collect() {
        if (!metrics.outboxCounts) return
        // One query for both gauges of a scrape.
        metrics.outboxScrape ??= metrics.outboxCounts().finally(() => {
          metrics.outboxScrape = null
        })
        this.set((await metrics.outboxScrape)[state])
      },
    })
  }

  constructor() {
    // Process (CPU, memory, file descriptors) and Node (event-loop delay, heap, GC) metrics.
    collectDefaultMetrics({ register: this.registry })
    // Counters that exist before their first event read 0, not "no data", in a dashboard.
    for (const result of ['sent', 'failed']) this.mails.labels(result).inc(0)
    this.lockouts.inc(0)
    for (const reason of REFUSAL_REASONS) this.refusals.labels(reason).inc(0)
  }
}
