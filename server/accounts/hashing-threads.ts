import type { ScryptOptions } from 'node:crypto'
import { Worker } from 'node:worker_threads'
import { nicedThreadPrelude } from '../threads/niced-thread'

/**
 * scrypt on threads of its own, each at a lower scheduling priority than the event loop.
 *
 * node:crypto's scrypt runs on libuv's thread pool, at the priority of the event loop's thread:
 * during a sign-in flood on a 2-core machine the hashes and the event loop took turns for the
 * same cores, and the loop waited in the run queue for most of the time (seconds between turns
 * in `npm run bench -- --only flood`), so /healthz, served at once by the loop, was answered
 * seconds late. A thread niced by HASHING_NICE gets a core only when nothing at the default
 * priority wants it: hashing uses the spare CPU and the event loop always comes first
 * (niced-thread.ts).
 *
 * The threads start on first use and do not keep the process alive while idle. A thread idle for
 * HASHING_THREAD_IDLE_MS ends: each is a V8 isolate of its own (about 10 MB of RSS), and after a
 * burst of sign-ins the threads it started stayed for good (`npm run bench -- --only overload`
 * prints what RSS is made of after the load). Starting one again costs a sign-in a few
 * milliseconds beside the scrypt itself.
 */
export const HASHING_NICE = 10
export const HASHING_THREAD_IDLE_MS = 30_000

/** Runs in each thread (a CommonJS script: it is evaluated, not bundled). */
const THREAD_SOURCE = `${nicedThreadPrelude(HASHING_NICE)}
const { parentPort } = require('node:worker_threads')
const { scryptSync } = require('node:crypto')
parentPort.on('message', ({ password, salt, keyLength, options }) => {
  try {
    parentPort.postMessage({ key: scryptSync(password, salt, keyLength, options) })
  } catch (error) {
    parentPort.postMessage({ error: error instanceof Error ? error.message : String(error) })
  }
})
`

interface Job {
  password: string
  salt: Buffer
  keyLength: number
  options: ScryptOptions
  resolve: (key: Buffer) => void
  reject: (error: Error) => void
}

export class HashingThreads {
  /** Each idle thread, and the timer that ends it unless it is given a job first. */
  private readonly idle: { worker: Worker; retire: NodeJS.Timeout }[] = []
  private readonly queued: Job[] = []
  private started = 0

  constructor(
    readonly size: number,
    private readonly idleMs = HASHING_THREAD_IDLE_MS,
  ) {}

  /** The threads that exist now, working or idle. */
  get threads(): number {
    return this.started
  }

  scrypt(
    password: string,
    salt: Buffer,
    keyLength: number,
    options: ScryptOptions,
  ): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      this.queued.push({ password, salt, keyLength, options, resolve, reject })
      this.next()
    })
  }

  private next(): void {
    const job = this.queued[0]
    if (!job) return
    const resting = this.idle.pop()
    if (resting) clearTimeout(resting.retire)
    else if (this.started >= this.size) return
    const worker = resting?.worker ?? this.start()
    this.queued.shift()
    this.give(worker, job)
  }

  private start(): Worker {
    this.started += 1
    const worker = new Worker(THREAD_SOURCE, { eval: true })
    worker.unref()
    return worker
  }

  private give(worker: Worker, job: Job): void {
    // Referenced while it works: a pending sign-in keeps the process alive, an idle thread not.
    worker.ref()
    const settle = (answer: { key?: Uint8Array; error?: string }) => {
      worker.off('error', fail)
      worker.off('exit', fail)
      worker.unref()
      if (answer.key)
        job.resolve(Buffer.from(answer.key.buffer, answer.key.byteOffset, answer.key.length))
      else job.reject(new Error(answer.error ?? 'scrypt failed'))
      this.rest(worker)
      this.next()
    }
    const fail = (error: unknown) => {
      worker.off('message', settle)
      worker.off('error', fail)
      worker.off('exit', fail)
      this.started -= 1
      void worker.terminate()
      job.reject(
        error instanceof Error ? error : new Error(`hashing thread exited (${String(error)})`),
      )
      this.next()
    }
    worker.once('message', settle)
    worker.once('error', fail)
    worker.once('exit', fail)
    worker.postMessage({
      password: job.password,
      salt: job.salt,
      keyLength: job.keyLength,
      options: job.options,
    })
  }

  /** Idle until the next job, or for idleMs, after which the thread ends. */
  private rest(worker: Worker): void {
    const resting = {
      worker,
      retire: setTimeout(() => {
        this.idle.splice(this.idle.indexOf(resting), 1)
        this.started -= 1
        void worker.terminate()
      }, this.idleMs).unref(),
    }
    this.idle.push(resting)
  }
}
