import { SESSION_ENDED_EVENT, SESSION_EVENTS_PATH } from '../../../common/session-events'
import { apiStream } from './api-client'
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

/** The wait before opening the stream again after it ended without news: 1 s, then longer. */
export const reopenAfterMs = (failures: number) => Math.min(30_000, 1000 * 2 ** failures)

/** Reads one stream to its end; true when it said the session ended (it was then forgotten). */
async function followOnce(token: string, signal: AbortSignal): Promise<boolean> {
  const reader = (await apiStream(SESSION_EVENTS_PATH, signal)).getReader()
  const decoder = new TextDecoder()
  let buffer = ''
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return false
    const { events, rest } = takeEvents(buffer + decoder.decode(value, { stream: true }))
    buffer = rest
    const ended = events.find((event) => event.name === SESSION_ENDED_EVENT)
    if (ended) {
      const { error } = JSON.parse(ended.data) as { error: { code: string; message: string } }
      // A tab that has signed in again meanwhile keeps its new session.
      if (readToken() === token) clearToken({ endedBy: error })
      return true
    }
  }
}

/**
 * Follows the session's stream while `signal` allows, opening it again when it ends without news
 * (the server's limit, a restart, the network): the moment the session is ended anywhere, this
 * browser forgets it and the access guard shows the login page with why. One tab of the browser
 * holds the stream (a Web Lock), the others learn from the token's removal (token.ts): a stream
 * per tab would take the six connections a browser opens to a server over HTTP/1.1.
 */
export function followSessionEnd(token: string, signal: AbortSignal): void {
  const follow = async () => {
    let failures = 0
    while (!signal.aborted && readToken() === token) {
      try {
        if (await followOnce(token, signal)) return
        failures = 0
      } catch {
        if (signal.aborted) return
        failures += 1
      }
      // A 401 has ended the session already (api-client.ts): nothing left to follow.
      if (readToken() !== token) return
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, reopenAfterMs(failures))
        signal.addEventListener('abort', () => {
          clearTimeout(timer)
          resolve()
        })
      })
    }
  }
  if ('locks' in navigator) {
    navigator.locks.request('painel:session-events', { signal }, follow).catch(() => {
      // Aborted while waiting for the lock: another tab's stream went on.
    })
  } else void follow()
}
