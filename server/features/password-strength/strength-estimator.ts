import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'
import { nicedThreadPrelude } from '../../threads/niced-thread'
import { HttpError } from '../../http/errors'

/**
 * How hard a password is to guess, by zxcvbn-ts with its common and Brazilian Portuguese
 * dictionaries and pt-BR advice: the estimate the forms show while a new password is typed.
 *
 * It runs here rather than in the browser because its dictionaries are 449 KB (brotli) that every
 * person choosing a password downloaded and parsed on their phone; here they are loaded once,
 * on the first estimate, in a thread of their own (what that costs:
 * scripts/bench/password-estimate-cost.ts):
 * - the thread is niced like the hashing threads (niced-thread.ts), since one estimate of a
 *   long, symbol-heavy password costs zxcvbn up to hundreds of milliseconds, and the event loop
 *   must come first;
 * - only the first ESTIMATED_LENGTH characters are looked at (zxcvbn's maxLength): its cost grows
 *   much faster than the length (seconds for 128 symbols, a fraction of one for 32), and a
 *   password that long that is weak in its first 32 characters is rare;
 * - one estimate runs at a time and at most MAX_WAITING wait; more are refused at once (503), so
 *   a flood of estimates costs at most one core's spare time.
 * The thread starts on first use and does not keep the process alive while idle.
 */
export const ESTIMATED_LENGTH = 32
export const MAX_WAITING = 8

export interface Strength {
  /** 0 (guessed at once) to 4 (very hard to guess). */
  score: 0 | 1 | 2 | 3 | 4
  /** zxcvbn's advice in pt-BR, when it has some. */
  warning: string | null
}

export class EstimatorBusyError extends HttpError {
  constructor() {
    super(
      503,
      'server_busy',
      'O servidor está ocupado. A força da senha será estimada em instantes.',
      { 'retry-after': '1' },
      'estimator_busy',
    )
    this.name = 'EstimatorBusyError'
  }
}

const require = createRequire(import.meta.url)

/** Where the thread finds zxcvbn-ts: resolved here, so the thread does not depend on its cwd. */
const packages = () => ({
  core: require.resolve('@zxcvbn-ts/core'),
  common: require.resolve('@zxcvbn-ts/language-common'),
  portuguese: require.resolve('@zxcvbn-ts/language-pt-br'),
})

/** Runs in the thread (a CommonJS script: evaluated, not bundled). */
const THREAD_SOURCE = `${nicedThreadPrelude(15)}
const { parentPort, workerData } = require('node:worker_threads')
const { ZxcvbnFactory } = require(workerData.core)
const common = require(workerData.common)
const portuguese = require(workerData.portuguese)
const zxcvbn = new ZxcvbnFactory({
  maxLength: workerData.maxLength,
  translations: portuguese.translations,
  graphs: common.adjacencyGraphs,
  dictionary: { ...common.dictionary, ...portuguese.dictionary },
})
parentPort.on('message', ({ password, userInputs }) => {
  try {
    const result = zxcvbn.check(password, userInputs)
    parentPort.postMessage({ score: result.score, warning: result.feedback.warning })
  } catch (error) {
    parentPort.postMessage({ error: error instanceof Error ? error.message : String(error) })
  }
})
`

interface Job {
  password: string
  userInputs: string[]
  resolve: (strength: Strength) => void
  reject: (error: Error) => void
}

export class StrengthEstimator {
  private worker: Worker | null = null
  /** The estimate in the thread, and which thread: a dead thread's late 'exit' settles only its own. */
  private running: { job: Job; worker: Worker } | null = null
  private readonly waiting: Job[] = []

  constructor(private readonly maxWaiting = MAX_WAITING) {}

  estimate(password: string, userInputs: string[]): Promise<Strength> {
    if (this.running && this.waiting.length >= this.maxWaiting) {
      return Promise.reject(new EstimatorBusyError())
    }
    return new Promise((resolve, reject) => {
      this.waiting.push({ password, userInputs, resolve, reject })
      this.next()
    })
  }

  /** Stops the thread (the app's onClose); estimates still waiting are refused. */
  async close(): Promise<void> {
    for (const job of this.waiting.splice(0)) job.reject(new EstimatorBusyError())
    const worker = this.worker
    this.worker = null
    if (worker) await worker.terminate()
  }

  private next(): void {
    if (this.running) return
    const job = this.waiting.shift()
    if (!job) return
    const worker = (this.worker ??= this.start())
    this.running = { job, worker }
    // Referenced while it works: a pending estimate keeps the process alive, an idle thread not.
    worker.ref()
    worker.postMessage({ password: job.password, userInputs: job.userInputs })
  }

  private start(): Worker {
    const worker = new Worker(THREAD_SOURCE, {
      eval: true,
      workerData: { ...packages(), maxLength: ESTIMATED_LENGTH },
    })
    worker.unref()
    worker.on(
      'message',
      (answer: { score?: Strength['score']; warning?: string | null; error?: string }) => {
        const job = this.settle(worker)
        if (answer.score !== undefined)
          job?.resolve({ score: answer.score, warning: answer.warning ?? null })
        else job?.reject(new Error(answer.error ?? 'password strength estimate failed'))
        this.next()
      },
    )
    // A thread that dies takes its estimate with it; the next one starts a new thread.
    const lost = (reason: unknown) => {
      if (this.worker === worker) this.worker = null
      this.settle(worker)?.reject(
        reason instanceof Error ? reason : new Error(`strength thread exited (${String(reason)})`),
      )
      this.next()
    }
    worker.on('error', lost)
    worker.on('exit', lost)
    return worker
  }

  private settle(worker: Worker): Job | null {
    worker.unref()
    if (this.running?.worker !== worker) return null
    const { job } = this.running
    this.running = null
    return job
  }
}
