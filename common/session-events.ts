/**
 * GET /api/auth/session-events: a stream of server-sent events (text/event-stream) that stays
 * open while the panel is, so a browser learns at once that its session was ended elsewhere
 * (server/accounts/session-watch.ts). A plain module without TypeBox, so the
 * client may import it at run time.
 *
 * - `ended`: the session no longer works; its data is the error body (`{ error: { code,
 *   message } }`) the session's next call would get as a 401. The stream then ends.
 * - Comment lines (`: …`) open the stream and keep it alive through proxies; they mean nothing.
 *
 * The stream also ends without an event after a while, or when the server shuts down: the
 * browser then opens another.
 */
export const SESSION_EVENTS_PATH = 'auth/session-events'

export const SESSION_ENDED_EVENT = 'ended'
