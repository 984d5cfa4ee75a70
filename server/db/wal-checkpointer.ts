import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'
import { nicedThreadPrelude } from '../threads/niced-thread'

/**
 * The embedded database's checkpoints, on a thread of their own.
 *
 * A checkpoint copies the WAL's pages into the database file and waits for the disk (fsync).
 * SQLite makes one by itself at the COMMIT that takes the WAL past 1000 pages, on the committing
 * connection, which for the server is the event loop's thread: deleting a team of 11,975 people
 * at 100k held the loop 220-250 ms at its COMMIT, and 80-110 ms of that was the checkpoint's
 * fsync of the database file alone (scripts/bench/year-writes.ts; the fsyncs timed with strace,
 * by hand, 2026-12-01). An anonymisation's own checkpoint (forget-deleted-bytes.ts) held it too.
 *
 * So the server's connection leaves its checkpoints to this thread: it only tells it of each
 * commit (noteCommit), and the thread makes a PASSIVE checkpoint — which never stops the writer
 * or a reader — at most once per CHECKPOINT_DELAY_MS, of whatever the commits since have
 * written. A checkpoint the connection is asked for (TRUNCATE: an anonymisation's, the close's)
 * runs here as well, and the connection awaits it without holding the loop. SQLite's own
 * automatic checkpoint stays on the connection, further off (FALLBACK_AUTOCHECKPOINT_PAGES), in
 * case this thread cannot keep up or cannot start: the WAL never grows without bound.
 *
 * The thread starts at the first checkpoint and ends after CHECKPOINTER_IDLE_MS without one: it
 * is a V8 isolate and a connection of its own, about 10 MB of RSS (a server that writes nothing
 * never starts it). Niced like the hashing threads, so its page copying comes after the loop.
 */
export const CHECKPOINT_DELAY_MS = 1000
export const CHECKPOINTER_IDLE_MS = 30_000
/** SQLite's automatic checkpoint on the server's connection (pages; SQLite's default is 1000). */
export const FALLBACK_AUTOCHECKPOINT_PAGES = 10_000
/** How long a TRUNCATE checkpoint on the thread waits for readers and the writer to let go. */
const TRUNCATE_WAIT_MS = 5000
const CHECKPOINTER_NICE = 5

export type CheckpointMode = 'PASSIVE' | 'TRUNCATE'

/** What SQLite answers a checkpoint: busy 1 when it could not finish (a reader, a writer). */
export interface CheckpointResult {
  busy: number
  log: number
  checkpointed: number
}

export interface CheckpointerLog {
  warn(message: string): void
}

/** Runs in the thread (a CommonJS script: it is evaluated, not bundled). */
const THREAD_SOURCE = `${nicedThreadPrelude(CHECKPOINTER_NICE)}
const { parentPort, workerData } = require('node:worker_threads')
const Libsql = require(workerData.libsql)
const db = new Libsql(workerData.file)
db.exec('pragma synchronous = FULL')
db.exec('pragma busy_timeout = ${TRUNCATE_WAIT_MS}')
const checkpoints = {
  PASSIVE: db.prepare('pragma wal_checkpoint(PASSIVE)'),
  TRUNCATE: db.prepare('pragma wal_checkpoint(TRUNCATE)'),
}
parentPort.on('message', ({ mode }) => {
  if (mode === 'close') {
    db.close()
    parentPort.close()
    return
  }
  try {
    parentPort.postMessage({ result: checkpoints[mode].get() })
  } catch (error) {
    parentPort.postMessage({ error: error instanceof Error ? error.message : String(error) })
  }
})
`

const libsqlPath = () => createRequire(import.meta.url).resolve('libsql')

interface Thread {
  worker: Worker
  exited: Promise<void>
}

export class WalCheckpointer {
  private thread: Thread | null = null
  private scheduled: NodeJS.Timeout | null = null
  private retire: NodeJS.Timeout | null = null
  /** The checkpoints asked for, one after the other. */
  private queue: Promise<unknown> = Promise.resolve()
  private closed = false
  /** Checkpoints made on the thread (tests and the log read it). */
  done = 0

  constructor(
    private readonly file: string,
    private readonly log: CheckpointerLog,
    private readonly delayMs = CHECKPOINT_DELAY_MS,
    private readonly idleMs = CHECKPOINTER_IDLE_MS,
  ) {}

  /** Whether the thread exists now. */
  get running(): boolean {
    return this.thread !== null
  }

  /** After a commit: a PASSIVE checkpoint within delayMs, one for all the commits meanwhile. */
  noteCommit(): void {
    if (this.closed || this.scheduled) return
    this.scheduled = setTimeout(() => {
      this.scheduled = null
      this.checkpoint('PASSIVE').catch((error: unknown) =>
        this.log.warn(
          `database: a checkpoint failed on its thread (${asError(error).message}); the next commit asks again`,
        ),
      )
    }, this.delayMs)
    this.scheduled.unref()
  }

  /** A checkpoint on the thread, after those asked for before it. */
  checkpoint(mode: CheckpointMode): Promise<CheckpointResult> {
    const next = this.queue.then(() => this.run(mode))
    this.queue = next.catch(() => {})
    return next
  }

  /** Ends the thread once the checkpoints asked for are made; none is scheduled after. */
  async close(): Promise<void> {
    this.closed = true
    if (this.scheduled) clearTimeout(this.scheduled)
    this.scheduled = null
    await this.queue
    await this.stop()
  }

  private async run(mode: CheckpointMode): Promise<CheckpointResult> {
    if (this.retire) clearTimeout(this.retire)
    this.retire = null
    const thread = (this.thread ??= this.start())
    try {
      const result = await ask(thread.worker, mode)
      this.done += 1
      return result
    } catch (error) {
      // A thread that failed is not trusted again: the next checkpoint starts a new one.
      await this.stop()
      throw error
    } finally {
      if (!this.closed && this.thread)
        this.retire = setTimeout(() => void this.stop(), this.idleMs).unref()
    }
  }

  private start(): Thread {
    const worker = new Worker(THREAD_SOURCE, {
      eval: true,
      workerData: { libsql: libsqlPath(), file: this.file },
    })
    worker.unref()
    // An error ends the thread too; 'exit' follows it.
    worker.on('error', () => {})
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()))
    return { worker, exited }
  }

  /** The thread closes its connection and ends. */
  private async stop(): Promise<void> {
    if (this.retire) clearTimeout(this.retire)
    this.retire = null
    const thread = this.thread
    this.thread = null
    if (!thread) return
    // Referenced until it has ended: a closing server may have nothing else keeping it alive.
    thread.worker.ref()
    thread.worker.postMessage({ mode: 'close' })
    await thread.exited
  }
}

/** One checkpoint on the thread; it rejects if the thread fails or ends instead of answering. */
function ask(worker: Worker, mode: CheckpointMode): Promise<CheckpointResult> {
  return new Promise((resolve, reject) => {
    const settle = (answer: { result?: CheckpointResult; error?: string }) => {
      off()
      if (answer.result) resolve(answer.result)
      else reject(new Error(answer.error ?? 'checkpoint failed'))
    }
    const fail = (error: unknown) => {
      off()
      reject(asError(error, 'the checkpoint thread ended'))
    }
    const off = () => {
      worker.off('message', settle)
      worker.off('error', fail)
      worker.off('exit', fail)
      worker.unref()
    }
    // Referenced while it works: a checkpoint under way keeps the process alive.
    worker.ref()
    worker.once('message', settle)
    worker.once('error', fail)
    worker.once('exit', fail)
    worker.postMessage({ mode })
  })
}

const asError = (error: unknown, fallback = 'checkpoint failed') =>
  error instanceof Error ? error : new Error(`${fallback} (${String(error)})`)
