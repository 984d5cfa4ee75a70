import { statSync } from 'node:fs'
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
 * So the server's connection leaves its checkpoints to this thread. After each commit it looks at
 * the WAL's size (noteCommit: one stat of the file); once the WAL holds CHECKPOINT_AT_WAL_BYTES,
 * about SQLite's 1000 pages, the thread makes a PASSIVE checkpoint, which never stops the writer
 * or a reader, and then, if that copied every page, empties the WAL (TRUNCATE, which then has
 * nothing to copy, tried without waiting): the WAL's size is then what was written since. Should
 * the WAL not be emptied (a writer or a reader was there), it stays at its size, and the next
 * commits ask again until it is. A checkpoint the connection is asked for (TRUNCATE: an
 * anonymisation's, the close's) runs here as well, and the connection awaits it without holding
 * the loop. SQLite's own automatic checkpoint stays on the connection, further off
 * (FALLBACK_AUTOCHECKPOINT_PAGES), in case this thread cannot keep up or cannot start: the WAL
 * never grows without bound.
 *
 * The steps of a long write run on this thread too (step(): a team's people moved out a hundred
 * at a time, roles/team-store.ts). Each step's COMMIT waits for the disk, and while a checkpoint's
 * fsync ran (on this thread, or SQLite's) the COMMITs on the loop waited with it, through the
 * file system's journal: deleting a team of 11,975 at 100k people held the loop 52-116 ms at
 * those COMMITs (p99 42-98 ms), 21-27 ms with no checkpoint at all meanwhile; without the fsync
 * of each COMMIT (synchronous NORMAL) 122-160 ms; with the checkpoints put off until the steps
 * stopped, the WAL passed SQLite's backstop (the deletion writes about 80 MB of it) and 101-116
 * ms (a lab script on scripts/bench/year-writes.ts's seed, by hand, 2026-12-01). Here the steps
 * wait for the disk and the loop does not, and they never meet a checkpoint of this thread's.
 * The server's connection is kept for the step's time (sqlite-dialect.ts), as for a query, so
 * that no request's write meets the step's lock. The thread being niced, a step keeps it longer
 * when both cores are busy: a median of 10-13 ms a step against 1.6-1.7 ms on the connection
 * itself, with two busy loops beside it, and 3.0 against 2.5 ms without (by hand, 2026-12-01).
 * Requests that need the database wait for it then; the loop, and the rest, do not.
 * A request's own COMMIT still waits for the disk on the loop. The checkpoints its commits ask
 * for keep the server's connection while they run, so that no COMMIT meets their fsync
 * (scheduledCheckpoint).
 *
 * The thread starts at the first checkpoint or step and ends after CHECKPOINTER_IDLE_MS without one: it
 * is a V8 isolate and a connection of its own, about 10 MB of RSS. A server that writes little
 * never starts it (a first start writes far less than a checkpoint's worth). Niced like the
 * hashing threads, so its page copying comes after the loop.
 *
 * Its connection never waits for a lock (busy_timeout 0), as the server's own connection did
 * not when it made these checkpoints: the caller of a TRUNCATE holds the server's connection until
 * the answer, so a wait there (for a backup's snapshot, an operator's sqlite3) held every query
 * of the server with it. Busy, a checkpoint answers busy 1 at once, and the next one finishes the
 * job. A thread that fails is ended, and none is started for FAILURE_PAUSE_MS: meanwhile a
 * TRUNCATE asked for is made on the server's connection, and SQLite's backstop keeps the WAL in
 * bounds.
 */
/** How much WAL asks for a checkpoint: about 1000 pages of 4 KiB with their frame headers. */
export const CHECKPOINT_AT_WAL_BYTES = 4 * 1024 * 1024
/** How long after the commit that asked for it the checkpoint is made: one for a burst. */
export const CHECKPOINT_DELAY_MS = 100
export const CHECKPOINTER_IDLE_MS = 30_000
/** SQLite's automatic checkpoint on the server's connection (pages; SQLite's default is 1000). */
export const FALLBACK_AUTOCHECKPOINT_PAGES = 10_000
/**
 * After a checkpoint that could not empty the WAL (a reader or a writer was there), how long
 * before the next: the file keeps its size, and every commit would otherwise ask for one.
 */
export const CHECKPOINT_REPEAT_MS = 1000
/** After the thread failed (it could not open the file, the disk), how long none is started. */
export const FAILURE_PAUSE_MS = 30_000
const CHECKPOINTER_NICE = 5

export type CheckpointMode = 'PASSIVE' | 'TRUNCATE'

/** A write statement and its parameters, run on the thread in a transaction of its own. */
export interface ThreadStep {
  sql: string
  parameters: readonly (string | number | null)[]
}

/** A step's answer: the rows it changed, or that another process held the write lock. */
export type StepAnswer = { changes: number } | { busy: true }

/**
 * A checkpoint or step never given to the thread (closed, paused after a failure): the caller
 * makes it on its own connection. Any other failure of a step may have come after its COMMIT.
 */
export class ThreadUnavailable extends Error {
  constructor(reason: string) {
    super(reason)
    this.name = 'ThreadUnavailable'
  }
}

/**
 * A step's statement failed on the thread (a constraint, a trigger, the disk full): the thread is
 * fine, and `code` is SQLite's (SQLITE_FULL, …), for the caller's storage check.
 */
export class StepFailed extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message)
    this.name = 'StepFailed'
  }
}

/** What SQLite answers a checkpoint: busy 1 when it could not finish (a reader, a writer). */
export interface CheckpointResult {
  busy: number
  log: number
  checkpointed: number
}

/** The thread's answer: SQLite's, and whether the WAL was emptied after it. */
interface ThreadAnswer extends CheckpointResult {
  emptied: boolean
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
db.exec('pragma busy_timeout = 0')
// As the server's connection writes (sqlite-database.ts's connectionPragmas), for the steps.
db.exec('pragma foreign_keys = ON')
db.exec('pragma secure_delete = ON')
// Its steps' commits leave the checkpoints to this thread's own, as the server's connection does.
db.exec('pragma wal_autocheckpoint = ' + workerData.autocheckpointPages)
const begin = db.prepare('begin immediate')
const commit = db.prepare('commit')
const rollback = db.prepare('rollback')
const prepared = new Map()
/** A write in a transaction of its own; busy, at once, when another process holds the lock. */
function step({ sql, parameters }) {
  let statement = prepared.get(sql)
  if (!statement) prepared.set(sql, (statement = db.prepare(sql)))
  try {
    begin.run()
  } catch (error) {
    if (String(error.code).startsWith('SQLITE_BUSY')) return { busy: true }
    throw error
  }
  try {
    const { changes } = statement.run(parameters)
    commit.run()
    return { changes }
  } catch (error) {
    if (db.inTransaction) rollback.run()
    throw error
  }
}
const passive = db.prepare('pragma wal_checkpoint(PASSIVE)')
const truncate = db.prepare('pragma wal_checkpoint(TRUNCATE)')
const checkpoints = {
  PASSIVE() {
    const result = passive.get()
    if (result.busy !== 0 || result.checkpointed !== result.log) return { ...result, emptied: false }
    // Every page is in the file: emptying the WAL takes the write lock for a moment, not waited
    // for (busy 1: a writer there now has added pages, which the next checkpoint copies).
    return { ...result, emptied: truncate.get().busy === 0 }
  },
  TRUNCATE() {
    const result = truncate.get()
    return { ...result, emptied: result.busy === 0 }
  },
}
parentPort.on('message', ({ mode, step: asked }) => {
  if (mode === 'close') {
    db.close()
    parentPort.close()
    return
  }
  if (mode === 'PING') {
    parentPort.postMessage({ result: { ready: true } })
    return
  }
  if (mode === 'STEP') {
    try {
      parentPort.postMessage({ result: step(asked) })
    } catch (error) {
      // A rollback that failed leaves the transaction, and the write lock, with this connection:
      // the thread is not to be used again (its end lets them go).
      if (db.inTransaction)
        parentPort.postMessage({ error: 'a step could not be rolled back: ' + String(error && error.message) })
      else
        parentPort.postMessage({ stepError: String(error && error.message), code: error && error.code })
    }
    return
  }
  try {
    parentPort.postMessage({ result: checkpoints[mode]() })
  } catch (error) {
    parentPort.postMessage({ error: error instanceof Error ? error.message : String(error) })
  }
})
`

/** The WAL file's size; 0 when there is none (it is made at the first write). */
export function walBytes(file: string): number {
  try {
    return statSync(`${file}-wal`).size
  } catch {
    return 0
  }
}

const libsqlPath = () => createRequire(import.meta.url).resolve('libsql')

interface Thread {
  worker: Worker
  exited: Promise<void>
  /** False once it has ended, whatever ended it: it answers nothing more. */
  alive: boolean
}

export class WalCheckpointer {
  private thread: Thread | null = null
  private scheduled: NodeJS.Timeout | null = null
  private retire: NodeJS.Timeout | null = null
  /** The checkpoints asked for, one after the other. */
  private queue: Promise<unknown> = Promise.resolve()
  private closed = false
  /** No checkpoint is scheduled before this (performance.now()): see CHECKPOINT_REPEAT_MS. */
  private notBefore = 0
  /** No thread is started before this (performance.now()): see FAILURE_PAUSE_MS. */
  private pausedUntil = 0
  /** Checkpoints and steps made (committed) on the thread, and threads started (tests read them). */
  done = 0
  stepsDone = 0
  started = 0

  constructor(
    private readonly file: string,
    private readonly log: CheckpointerLog,
    private readonly timing = {
      atWalBytes: CHECKPOINT_AT_WAL_BYTES,
      delayMs: CHECKPOINT_DELAY_MS,
      idleMs: CHECKPOINTER_IDLE_MS,
      repeatMs: CHECKPOINT_REPEAT_MS,
      failurePauseMs: FAILURE_PAUSE_MS,
    },
  ) {}

  /** Whether the thread exists now. */
  get running(): boolean {
    return this.thread !== null
  }

  /**
   * After a commit: when the WAL holds atWalBytes, a PASSIVE checkpoint within delayMs, one for
   * all the commits meanwhile.
   */
  noteCommit(): void {
    if (this.closed || this.scheduled || this.paused()) return
    if (walBytes(this.file) < this.timing.atWalBytes) return
    const delayMs = Math.max(this.timing.delayMs, this.notBefore - performance.now())
    this.scheduled = setTimeout(() => {
      this.scheduled = null
      this.scheduledCheckpoint().catch((error: unknown) => {
        // Closed while it waited for the connection: the close made the last checkpoint.
        if (this.closed) return
        this.log.warn(
          `database: a checkpoint failed on its thread (${asError(error).message}); the next commit asks again`,
        )
      })
    }, delayMs)
    this.scheduled.unref()
  }

  /**
   * A checkpoint the commits asked for, with the server's connection kept meanwhile (`keep`, from
   * sqlite-dialect.ts). A COMMIT on the event loop that met the checkpoint's fsync waited for the
   * disk with it, and held the loop as long: the writes of 3,000 sign-ins back to back held it
   * 31.9-35.3 ms at most in four runs of scripts/bench/year-writes.ts, and 8.3 ms with the
   * connection kept (2026-12-02). A request that needs the database waits for the checkpoint
   * instead (those sign-ins' p99 went from 6.4-7.0 to 17.9 ms); the loop, and the rest, do not.
   * The thread's start is awaited first, without the connection kept.
   */
  private async scheduledCheckpoint(): Promise<CheckpointResult> {
    await this.ready()
    return this.keep(() => this.checkpoint('PASSIVE'))
  }

  /** How a scheduled checkpoint keeps the server's connection: as it is, until told (keepWith). */
  private keep: <T>(work: () => Promise<T>) => Promise<T> = (work) => work()

  /** The server's connection, kept for `work`'s time: each scheduled checkpoint runs inside it. */
  keepWith(keep: <T>(work: () => Promise<T>) => Promise<T>): void {
    this.keep = keep
  }

  /**
   * A checkpoint on the thread, after those asked for before it. Refused at once once closed, or
   * while paused after a failure: the caller makes it on its own connection.
   */
  checkpoint(mode: CheckpointMode): Promise<CheckpointResult> {
    return this.enqueue(() => this.run({ mode }))
  }

  /**
   * Resolves once the thread has started and made the checkpoints asked for so far: awaited
   * before a step takes the server's connection, so that the step does not keep it through a
   * thread's start (100-265 ms) or a checkpoint. Rejects as checkpoint() does.
   */
  async ready(): Promise<void> {
    await this.enqueue(() => this.run({ mode: 'PING' }))
  }

  /**
   * A long write's step on the thread, after what was asked of it before: its statement in a
   * transaction of its own. Rejects ThreadUnavailable when it was not given to the thread,
   * StepFailed when the statement failed (nothing committed), and otherwise when the thread ended
   * during the step (committed or not).
   */
  step(step: ThreadStep): Promise<StepAnswer> {
    return this.enqueue(() => this.run({ mode: 'STEP', step }))
  }

  /**
   * `work` after what was asked of the thread before it; refused at once (ThreadUnavailable) once
   * closed, or while paused after a failure.
   */
  private enqueue<T>(work: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new ThreadUnavailable('the checkpointer is closed'))
    if (this.paused())
      return Promise.reject(new ThreadUnavailable('the checkpoint thread failed lately'))
    const next = this.queue.then(work)
    this.queue = next.catch(() => {})
    return next
  }

  private paused(): boolean {
    return performance.now() < this.pausedUntil
  }

  /** Ends the thread once the checkpoints asked for are made; none is scheduled after. */
  async close(): Promise<void> {
    this.closed = true
    if (this.scheduled) clearTimeout(this.scheduled)
    this.scheduled = null
    await this.queue
    await this.stop()
  }

  private async run(request: { mode: CheckpointMode }): Promise<CheckpointResult>
  private async run(request: { mode: 'STEP'; step: ThreadStep }): Promise<StepAnswer>
  private async run(request: { mode: 'PING' }): Promise<unknown>
  private async run(request: ThreadRequest): Promise<unknown> {
    if (this.retire) clearTimeout(this.retire)
    this.retire = null
    if (this.thread && !this.thread.alive) this.thread = null
    const thread = (this.thread ??= this.start())
    try {
      const answer = await ask(thread, request)
      if (request.mode === 'PING') return answer
      if (request.mode === 'STEP') {
        if ('changes' in answer) this.stepsDone += 1
        return answer
      }
      const { emptied, ...result } = answer as ThreadAnswer
      this.done += 1
      this.notBefore = emptied ? 0 : performance.now() + this.timing.repeatMs
      return result
    } catch (error) {
      // The statement's own failure: the thread is as good as before.
      if (error instanceof StepFailed) throw error
      // A thread that failed is not trusted again, and none is started for a while.
      this.pausedUntil = performance.now() + this.timing.failurePauseMs
      await this.stop()
      throw error
    } finally {
      if (!this.closed && this.thread)
        this.retire = setTimeout(() => void this.stop(), this.timing.idleMs).unref()
    }
  }

  private start(): Thread {
    this.started += 1
    const worker = new Worker(THREAD_SOURCE, {
      eval: true,
      workerData: {
        libsql: libsqlPath(),
        file: this.file,
        autocheckpointPages: FALLBACK_AUTOCHECKPOINT_PAGES,
      },
    })
    worker.unref()
    // An error ends the thread too; 'exit' follows it.
    worker.on('error', () => {})
    const thread: Thread = { worker, exited: Promise.resolve(), alive: true }
    thread.exited = new Promise<void>((resolve) =>
      worker.once('exit', () => {
        thread.alive = false
        resolve()
      }),
    )
    return thread
  }

  /** The thread closes its connection and ends. */
  private async stop(): Promise<void> {
    if (this.retire) clearTimeout(this.retire)
    this.retire = null
    const thread = this.thread
    this.thread = null
    if (!thread?.alive) return
    // Referenced until it has ended: a closing server may have nothing else keeping it alive.
    thread.worker.ref()
    thread.worker.postMessage({ mode: 'close' })
    await thread.exited
  }
}

type ThreadRequest =
  { mode: CheckpointMode } | { mode: 'STEP'; step: ThreadStep } | { mode: 'PING' }

interface ThreadReply {
  result?: ThreadAnswer | StepAnswer
  error?: string
  stepError?: string
  code?: string
}

/**
 * One checkpoint or step on the thread; it rejects if the thread fails or ends instead of
 * answering, and StepFailed if a step's statement failed.
 */
function ask(
  { worker, alive }: Thread,
  request: ThreadRequest,
): Promise<ThreadAnswer | StepAnswer> {
  if (!alive) return Promise.reject(new Error('the checkpoint thread ended'))
  return new Promise((resolve, reject) => {
    const settle = (answer: ThreadReply) => {
      off()
      if (answer.result) resolve(answer.result)
      else if (answer.stepError !== undefined) reject(new StepFailed(answer.stepError, answer.code))
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
    worker.postMessage(request)
  })
}

const asError = (error: unknown, fallback = 'checkpoint failed') =>
  error instanceof Error ? error : new Error(`${fallback} (${String(error)})`)
