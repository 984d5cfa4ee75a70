import { PassThrough } from 'node:stream'
import type { FastifyBaseLogger } from 'fastify'
import type { SessionEndCode } from '../../common/session-end'
import { SESSION_ENDED_EVENT } from '../../common/session-events'
import { errorBody } from '../http/errors'
import { apiMessages } from '../http/messages'

export interface SessionWatchOptions {
  /**
   * How often the sessions of the open streams are looked up (ms): the longest an open browser
   * goes on showing the panel after its session was ended elsewhere (an admin, a directory's
   * `active: false`, another replica).
   */
  watchMs: number
  /** A comment this often keeps a proxy from closing a quiet stream (nginx: 60 s by default). */
  heartbeatMs: number
  /** A stream ends after this long, and the browser opens another: no answer is held for ever. */
  maxMs: number
}

/**
 * Streams one session may hold at once: a browser holds one (its tabs share it), a reload opens
 * the next before the last has closed. Past this the oldest is ended: a client that opens
 * thousands holds four.
 */
export const STREAMS_PER_SESSION = 4

export const DEFAULT_SESSION_WATCH: SessionWatchOptions = {
  watchMs: 500,
  heartbeatMs: 25_000,
  maxMs: 15 * 60_000,
}

type ClosedCode = 'unauthenticated' | SessionEndCode

/** One server-sent event: its name and its JSON data, a blank line after. */
const event = (name: string, data: unknown) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`

/**
 * The open session streams of this process (GET /api/auth/session-events) and the one loop that
 * watches their sessions: every `watchMs`, one query for all of them (accounts/sessions.ts's
 * closedAmong), whoever ended them and on whichever replica. A stream whose session is closed
 * gets an `ended` event with the error its next call would get (the same code and words), and
 * ends. Nothing runs while no stream is open.
 */
export class SessionWatch {
  private readonly streams = new Map<PassThrough, string>()
  private readonly watching: NodeJS.Timeout
  private readonly beating: NodeJS.Timeout
  private look: Promise<void> | null = null
  private closing = false
  /** Whether the last look failed: its warning is logged once, not every half second. */
  private failing = false

  constructor(
    private readonly closedAmong: (ids: string[]) => Promise<Map<string, ClosedCode>>,
    private readonly options: SessionWatchOptions,
    private readonly log: FastifyBaseLogger,
  ) {
    this.watching = setInterval(() => void this.lookOnce(), options.watchMs).unref()
    this.beating = setInterval(() => this.beat(), options.heartbeatMs).unref()
  }

  /**
   * A new stream for the session: open at once (its first comment sends the headers), or ended
   * at once while the server shuts down.
   */
  open(sessionId: string): PassThrough {
    const stream = new PassThrough()
    const same = this.writable().filter(([, id]) => id === sessionId)
    const over = Math.max(0, same.length + 1 - STREAMS_PER_SESSION)
    for (const [oldest] of same.slice(0, over)) oldest.end()
    this.streams.set(stream, sessionId)
    stream.once('close', () => this.streams.delete(stream))
    stream.write(': open\n\n')
    if (this.closing || this.options.maxMs <= 0) stream.end()
    else {
      const limit = setTimeout(() => stream.end(), this.options.maxMs).unref()
      stream.once('close', () => clearTimeout(limit))
    }
    return stream
  }

  /**
   * Ends every stream, and those opened from now on (the server is draining): the browsers open
   * theirs on another replica.
   */
  endAll(): void {
    this.closing = true
    for (const stream of this.streams.keys()) stream.end()
  }

  /** Stops watching, once the look under way is done (the database closes after this). */
  async stop(): Promise<void> {
    clearInterval(this.watching)
    clearInterval(this.beating)
    this.endAll()
    await this.look
  }

  /** The streams still written to: one ended (its limit, a shutdown) may not have closed yet. */
  private writable(): [PassThrough, string][] {
    return [...this.streams].filter(([stream]) => !stream.writableEnded)
  }

  private beat(): void {
    for (const [stream] of this.writable()) stream.write(': \n\n')
  }

  /** One look at every open stream's session; a look still running is not started twice. */
  private lookOnce(): void {
    if (this.look || this.streams.size === 0) return
    this.look = this.lookAtSessions().finally(() => (this.look = null))
  }

  private async lookAtSessions(): Promise<void> {
    try {
      const open = this.writable()
      const closed = await this.closedAmong([...new Set(open.map(([, id]) => id))])
      if (this.failing) this.log.info('session streams: the sessions are looked up again')
      this.failing = false
      for (const [stream, id] of this.writable()) {
        const code = closed.get(id)
        if (code === undefined) continue
        stream.end(event(SESSION_ENDED_EVENT, errorBody(code, apiMessages[code])))
      }
    } catch (error) {
      // The database is away: the streams stay, and the next look tries again.
      if (!this.failing) {
        this.log.warn({ err: error }, 'session streams: the sessions could not be looked up')
      }
      this.failing = true
    }
  }
}
