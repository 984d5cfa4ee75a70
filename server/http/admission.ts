import type { FastifyInstance } from 'fastify'
import { HttpError } from './errors'

/**
 * Admission to the API by waiting time. At most `concurrency` API requests are served at once;
 * the others wait their turn in arrival order. A request that would wait longer than `maxWaitMs`
 * is refused at once (503, Retry-After) instead of being queued, and one that has waited that
 * long anyway is refused then: it never starts late. What the server cannot serve soon is said
 * at once, and what it serves is served promptly, however slow each request is (the estimate
 * follows the time requests actually take) and however many clients there are.
 *
 * Before this, every request was let in: under 200 connections the database's pool queued them
 * all, answers came 15-25 s late, and Node's own timers answered some with 408.
 * docs/operations.md ("Under load") gives the settings (API_CONCURRENCY, QUEUE_WAIT_MS).
 */
export interface AdmissionOptions {
  /** API requests served at once (API_CONCURRENCY). */
  concurrency: number
  /** The longest a request waits for its turn, in ms (QUEUE_WAIT_MS). */
  maxWaitMs: number
  /** What a refused client is told to wait before trying again (seconds). */
  retryAfterSeconds: number
}

/**
 * PostgreSQL: half the pool's ten connections, so that sign-ins (their own lane, below) and the
 * background work find one free; more ran more of the slow reads at once, each slower, and a
 * served read's p99 went over a second (npm run bench -- --only overload: 1.1 s at 10, 0.65-0.85 s
 * at 5). SQLite runs one query at a time, on the event loop: a second request admitted beside a
 * first only waits for its queries (an Auditoria read behind an Equipe read: p50 2.5 s at 2,
 * 0.37 s at 1).
 */
export const DEFAULT_CONCURRENCY = { postgres: 5, sqlite: 1 } as const

/**
 * The lanes of the queue. A password sign-in spends most of its time on its hash (scrypt, on
 * threads of its own), and held a read's place meanwhile: the database sat idle while reads were
 * refused (6 answers a second instead of 25). Let through unqueued instead, sign-ins piled up on
 * the database and everything waited behind them. So sign-ins have a lane of their own, as wide
 * as the hashing queue is deep (accounts/hashing-queue.ts, which refuses at once what it cannot
 * hold, as it did before), plus a few: the lane bounds them, the hashing queue sheds them.
 */
export type AdmissionLane = 'api' | 'sign-in'
export const ADMISSION_RETRY_AFTER_SECONDS = 2

export type AdmissionRefusal = 'queue_full' | 'queue_timeout'

export class QueueRefusal extends HttpError {
  constructor(
    readonly reason: AdmissionRefusal,
    retryAfterSeconds: number,
  ) {
    super(
      503,
      'server_busy',
      'O servidor está ocupado com muitos pedidos. Tente novamente em instantes.',
      { 'retry-after': String(retryAfterSeconds) },
      reason,
    )
    this.name = 'QueueRefusal'
  }
}

/** The client went away while its request waited: nobody is left to answer. */
export class QueueCancelled extends Error {
  constructor() {
    super('the client went away while its request waited for its turn')
    this.name = 'QueueCancelled'
  }
}

/** A request's place in the queue. */
export interface QueueEntry {
  /** Resolves with the function that gives the place back (call it when the answer is done). */
  admitted: Promise<() => void>
  /** The request no longer wants its place: out of the queue (`admitted` rejects QueueCancelled). */
  cancel: () => void
}

interface Waiter {
  since: number
  admit: (leave: () => void) => void
  reject: (error: Error) => void
  timer: NodeJS.Timeout
}

/** How much the latest hold moves the mean: the estimate follows a change of load within seconds. */
const HOLD_WEIGHT = 0.1

export class AdmissionQueue {
  private running = 0
  private readonly waiting: Waiter[] = []
  /** The mean time a request holds its place (ms): what a place in the queue costs. */
  private meanHoldMs = 0
  private holds = 0

  constructor(
    readonly options: AdmissionOptions,
    /** The clock waits are measured with (tests move it). */
    private readonly now: () => number = () => performance.now(),
  ) {}

  /**
   * Asks for a place. Admitted at once while there is one free and nobody waits; refused at
   * once (QueueRefusal `queue_full`) when the wait would exceed maxWaitMs; otherwise queued,
   * and refused (`queue_timeout`) if it has waited maxWaitMs when its turn comes, or when
   * maxWaitMs of wall time pass without one.
   */
  enter(): QueueEntry {
    if (this.running < this.options.concurrency && this.waiting.length === 0) {
      this.running += 1
      return { admitted: Promise.resolve(this.leaveFunction(this.now())), cancel: () => {} }
    }
    if (this.expectedWaitMs() > this.options.maxWaitMs) {
      return { admitted: Promise.reject(this.refusal('queue_full')), cancel: () => {} }
    }
    let waiter: Waiter | undefined
    const admitted = new Promise<() => void>((admit, reject) => {
      waiter = {
        since: this.now(),
        admit,
        reject,
        // The clock's wall-time twin: nobody waits past maxWaitMs even if no place frees up.
        timer: setTimeout(
          () => this.remove(waiter!, this.refusal('queue_timeout')),
          this.options.maxWaitMs,
        ),
      }
      this.waiting.push(waiter)
    })
    return { admitted, cancel: () => this.remove(waiter!, new QueueCancelled()) }
  }

  /**
   * What a request arriving now would wait: the places ahead of it, each freed in turn at the
   * rate the running requests finish.
   */
  expectedWaitMs(): number {
    if (this.running < this.options.concurrency) return 0
    return ((this.waiting.length + 1) * this.meanHoldMs) / this.options.concurrency
  }

  get load(): { running: number; waiting: number; meanHoldMs: number } {
    return { running: this.running, waiting: this.waiting.length, meanHoldMs: this.meanHoldMs }
  }

  private leaveFunction(admittedAt: number): () => void {
    let left = false
    return () => {
      if (left) return
      left = true
      const held = this.now() - admittedAt
      // The first hold is the estimate; later ones move it.
      this.meanHoldMs =
        this.holds === 0 ? held : this.meanHoldMs + HOLD_WEIGHT * (held - this.meanHoldMs)
      this.holds += 1
      this.running -= 1
      // Through the event loop, not at once: a request's answer, the close that gives its place
      // back and the next request's work (a query on SQLite runs on this thread) would otherwise
      // follow one another in microtasks, request after request, without the loop ever reading
      // a socket: /healthz waited 30-90 s behind them on SQLite. A newcomer meanwhile queues
      // behind the waiting ones (enter() admits directly only when nobody waits).
      setImmediate(() => this.next())
    }
  }

  /** Gives free places to the longest-waiting requests that have not waited too long. */
  private next(): void {
    while (this.running < this.options.concurrency && this.waiting.length > 0) {
      const waiter = this.waiting.shift()!
      clearTimeout(waiter.timer)
      const now = this.now()
      if (now - waiter.since > this.options.maxWaitMs) {
        waiter.reject(this.refusal('queue_timeout'))
        continue
      }
      this.running += 1
      waiter.admit(this.leaveFunction(now))
    }
  }

  /** Takes a waiter out of the queue, if it is still there, with the error it gets. */
  private remove(waiter: Waiter, error: Error): void {
    const index = this.waiting.indexOf(waiter)
    if (index < 0) return
    clearTimeout(waiter.timer)
    this.waiting.splice(index, 1)
    waiter.reject(error)
  }

  private refusal(reason: AdmissionRefusal): QueueRefusal {
    return new QueueRefusal(reason, this.options.retryAfterSeconds)
  }
}

/**
 * Puts every route registered on `app` (an encapsulated context: the built-in API's) behind the
 * queue of its lane (`config.admissionLane`, `api` unless the route says otherwise). The place is
 * held until the answer is written or the client goes away, so a streamed answer holds it while
 * it reads the database. A client that goes away while its request waits gives the place up, and
 * the request ends there: nobody would read its answer.
 */
export function admitThroughQueue(
  app: FastifyInstance,
  lanes: Readonly<Record<AdmissionLane, AdmissionQueue>>,
): void {
  app.addHook('preHandler', async (request) => request.leaveAdmission?.())
  app.addHook('onRequest', async (request, reply) => {
    const entry = lanes[request.routeOptions.config.admissionLane ?? 'api'].enter()
    const response = reply.raw
    response.once('close', entry.cancel)
    try {
      const leave = await entry.admitted
      response.removeListener('close', entry.cancel)
      if (response.destroyed) {
        // Gone between its admission and now.
        leave()
        reply.hijack()
        return
      }
      response.once('close', leave)
      // A held-open answer waits its turn for its checks (the session's lookup), like any
      // request, and gives the place up as its handler starts: it would hold it for minutes.
      // (A place is given up once, however often leave is called.)
      if (request.routeOptions.config.heldOpen) request.leaveAdmission = leave
    } catch (error) {
      response.removeListener('close', entry.cancel)
      if (error instanceof QueueCancelled) {
        reply.hijack()
        return
      }
      throw error
    }
  })
}

declare module 'fastify' {
  interface FastifyRequest {
    /** A held-open answer's place in the admission queue, given up as its handler starts. */
    leaveAdmission?: () => void
  }
  interface FastifyContextConfig {
    /** The admission queue's lane the route waits in (http/admission.ts); `api` by default. */
    admissionLane?: AdmissionLane
    /**
     * An answer that stays open until told (the session streams): it gives its place in the
     * admission queue up once its checks are done (it would keep it for as long as a browser has
     * the panel open), and its duration is no answer time (metrics/http-metrics.ts).
     */
    heldOpen?: boolean
  }
}
