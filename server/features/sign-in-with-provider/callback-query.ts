/**
 * The callback's query string, as the browser brings it back from the provider, which means as
 * anyone can write it. Read strictly before anything else looks at it: each parameter at most
 * once, bounded, printable; what the protocol does not define is dropped (providers add their
 * own, like `session_state`). Only `code`, `state` and `iss` go on to openid-client.
 */
export type CallbackQuery =
  | { kind: 'code'; state: string; params: URLSearchParams }
  | { kind: 'error'; state: string | null; cancelled: boolean }
  | { kind: 'malformed' }

/** Our states are openid-client's randomState(): 32 random bytes, base64url. */
export const STATE_PATTERN = /^[A-Za-z0-9_-]{43}$/
const MAX_QUERY_LENGTH = 8192
/** RFC 6749's VSCHAR: a code or an error code is printable ASCII. */
const VSCHARS = /^[\x20-\x7e]+$/
const MAX_CODE_LENGTH = 2048
const MAX_ISSUER_LENGTH = 2048
const PROTOCOL_KEYS = ['code', 'state', 'iss', 'error', 'error_description', 'error_uri']

export function readCallbackQuery(rawQuery: string): CallbackQuery {
  if (rawQuery.length > MAX_QUERY_LENGTH) return { kind: 'malformed' }
  let params: URLSearchParams
  try {
    params = new URLSearchParams(rawQuery.startsWith('?') ? rawQuery.slice(1) : rawQuery)
  } catch {
    return { kind: 'malformed' }
  }
  for (const key of PROTOCOL_KEYS) if (params.getAll(key).length > 1) return { kind: 'malformed' }
  const state = params.get('state')
  const validState = state !== null && STATE_PATTERN.test(state) ? state : null
  const error = params.get('error')
  if (error !== null) {
    if (!VSCHARS.test(error) || error.length > 100) return { kind: 'malformed' }
    return { kind: 'error', state: validState, cancelled: error === 'access_denied' }
  }
  const code = params.get('code')
  const iss = params.get('iss')
  if (
    validState === null ||
    code === null ||
    code.length > MAX_CODE_LENGTH ||
    !VSCHARS.test(code) ||
    (iss !== null && (iss.length > MAX_ISSUER_LENGTH || !VSCHARS.test(iss)))
  ) {
    return { kind: 'malformed' }
  }
  const forwarded = new URLSearchParams({ code, state: validState })
  if (iss !== null) forwarded.set('iss', iss)
  return { kind: 'code', state: validState, params: forwarded }
}
