import { SESSION_ENDED_EVENT, SESSION_EVENTS_PATH } from '../../../common/session-events'
import { ApiError, apiStream } from './api-client'
import { clearToken, readToken } from './token'

/** One server-sent event: its name and its data (comment lines carry none and are left out). */
export interface StreamEvent {
  name: string
  data: string
}

/**
 * The whole events in `buffer` (each ends with a blank line) and what is left of it, the start of
 * the next: the text/event-stream format as the server writes it (common/session-events.ts).
 */
export function takeEvents(buffer: string): { events: StreamEvent[]; rest: string } {
  const blocks = buffer.replace(/\r\n?/g, '\n').split('\n\n')
  const rest = blocks.pop() ?? ''
  const events: StreamEvent[] = []
  for (const block of blocks) {
    let name = 'message'
    const data: string[] = []
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) continue
      const colon = line.indexOf(':')
      const field = colon < 0 ? line : line.slice(0, colon)
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '')
      if (field === 'event') name = value
      else if (field === 'data') data.push(value)
    }
    if (data.length > 0) events.push({ name, data: data.join('\n') })
  }
  return { events, rest }
}

/**
 * The wait before opening the stream again: a second after one that ended without news, doubling
 * after each failure up to 30 s, and a random part of a fifth more (`random` in [0, 1)), so that
 * the browsers of a replica that shut down do not all come back in the same instant.
 */
export const reopenAfterMs = (failures: number, random = Math.random()) =>
  Math.round(Math.min(30_000, 1000 * 2 ** failures) * (1 + random / 5))

/**
 * A stream that brings nothing, not even the server's comment every 25 s, for this long is dead
 * (a laptop that slept, a network that changed): it is dropped and opened again.
 */
const SILENCE_MS = 60_000

/**
 * How long a token no longer known (`unauthenticated`: its row deleted, which is what "Sair"
 * does) waits before this browser forgets it: "Sair" in one of its own tabs forgets it first,
 * and that tab's login page then says "Você saiu." rather than that the session ended.
 */
const SIGN_OUT_GRACE_MS = 2000

/** Resolves after `ms`, or at once when `signal` aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve()
    }
    const timer = setTimeout(done, ms)
    signal.addEventListener('abort', done, { once: true })
  })
}

/** Reads one stream to its end; true when it said the session ended (it was then forgotten). */
async function followOnce(token: string, signal: AbortSignal): Promise<boolean> {
  const attempt = new AbortController()
  const stop = () => attempt.abort()
  signal.addEventListener('abort', stop, { once: true })
  let silence = setTimeout(stop, SILENCE_MS)
  try {
    const reader = (await apiStream(SESSION_EVENTS_PATH, attempt.signal)).getReader()
    const decoder = new TextDecoder()
    let buffer = ''
    for (;;) {
      const { done, value } = await reader.read()
      if (done) return false
      clearTimeout(silence)
      silence = setTimeout(stop, SILENCE_MS)
      const { events, rest } = takeEvents(buffer + decoder.decode(value, { stream: true }))
      buffer = rest
      const ended = events.find((event) => event.name === SESSION_ENDED_EVENT)
      if (ended) {
        const { error } = JSON.parse(ended.data) as { error: { code: string; message: string } }
        if (error.code === 'unauthenticated') await pause(SIGN_OUT_GRACE_MS, signal)
        // A tab that has signed out, or in again, meanwhile keeps what it did.
        if (!signal.aborted && readToken() === token) clearToken({ endedBy: error })
        return true
      }
    }
  } finally {
    clearTimeout(silence)
    signal.removeEventListener('abort', stop)
    attempt.abort()
  }
}

/**
 * Follows the session's stream while `signal` allows, opening it again when it ends without news
 * (the server's limit, a restart, the network): the moment the session is ended anywhere, this
 * browser forgets it and the access guard shows the login page with why. One tab of the browser
 * holds the stream (a Web Lock), the others learn from the token's removal (token.ts): a stream
 * per tab would take the six connections a browser opens to a server over HTTP/1.1. Where there
 * are no Web Locks (a page served over plain HTTP, not from localhost) nothing is followed: the
 * session's next call says it ended, as it always has.
 */
export function followSessionEnd(token: string, signal: AbortSignal): void {
  if (!('locks' in navigator)) return
  const follow = async () => {
    let failures = 0
    while (!signal.aborted && readToken() === token) {
      try {
        if (await followOnce(token, signal)) return
        failures = 0
      } catch (error) {
        // A 404: the server has no stream (an older backend behind API_UPSTREAM): not asked again.
        if (signal.aborted || (error instanceof ApiError && error.status === 404)) return
        failures += 1
      }
      // A 401 has ended the session already (api-client.ts): nothing left to follow.
      if (readToken() !== token) return
      await pause(reopenAfterMs(failures), signal)
    }
  }
  navigator.locks.request('painel:session-events', { signal }, follow).catch(() => {
    // Aborted while waiting for the lock: another tab's stream went on.
  })
}
