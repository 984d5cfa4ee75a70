import { parseJsonObject } from './json-object'
import { forgetRecoveryCodesLeft, noteRecoveryCodesLeft } from './recovery-codes-left'
import { forgetSessionEnd, recordSessionEnd, SIGNED_OUT } from './session-end'

/**
 * The session token in localStorage `token_adm`, stored as JSON `{"token": "..."}`.
 * Logged in means that entry holds a non-empty token string. Anything else (missing, '', null,
 * {}, {"token":""}, broken JSON, a number, storage that throws) means logged out, never a crash.
 */
export const TOKEN_KEY = 'token_adm'

/** Sent within this tab when the token changes here (the storage event only reaches other tabs). */
const CHANGE_EVENT = 'painel:token-change'

/** Whether this tab's session ended by the user's own "Sair" (then there is no path to remember). */
let signedOutHere = false

export function wasSignedOutHere(): boolean {
  return signedOutHere
}

export function parseToken(raw: string | null): string | null {
  const token = parseJsonObject(raw)?.token
  return typeof token === 'string' && token.trim() !== '' ? token : null
}

export function readToken(): string | null {
  try {
    return parseToken(window.localStorage.getItem(TOKEN_KEY))
  } catch {
    // Storage can be unavailable (blocked cookies, some private modes): that is "logged out".
    return null
  }
}

/**
 * A new session. `recoveryCodesLeft`: it began with a recovery code, and the layout is to say how
 * many are left; any other sign-in forgets a count an earlier one left unsaid.
 */
export function saveToken(
  token: string,
  { recoveryCodesLeft }: { recoveryCodesLeft?: number } = {},
): void {
  signedOutHere = false
  forgetSessionEnd()
  if (recoveryCodesLeft === undefined) forgetRecoveryCodesLeft()
  else noteRecoveryCodesLeft(recoveryCodesLeft)
  window.localStorage.setItem(TOKEN_KEY, JSON.stringify({ token }))
  window.dispatchEvent(new Event(CHANGE_EVENT))
}

/**
 * Ends the session in this tab (and, through storage, in the others). `signedOut`: the user chose
 * to; `endedBy`: the server's 401 said why. Either is recorded for the login page to say.
 */
export function clearToken({
  signedOut = false,
  endedBy,
}: { signedOut?: boolean; endedBy?: { code: string; message: string } } = {}): void {
  signedOutHere = signedOut
  if (signedOut) recordSessionEnd(SIGNED_OUT)
  else if (endedBy) recordSessionEnd(endedBy.code, endedBy.message)
  try {
    window.localStorage.removeItem(TOKEN_KEY)
  } finally {
    window.dispatchEvent(new Event(CHANGE_EVENT))
  }
}

/** Calls back when the token may have changed, in this tab or in another one. */
export function subscribeToToken(onChange: () => void): () => void {
  const onStorage = (event: StorageEvent) => {
    // key is null when another tab clears all of localStorage.
    if (event.key === TOKEN_KEY || event.key === null) onChange()
  }
  window.addEventListener('storage', onStorage)
  window.addEventListener(CHANGE_EVENT, onChange)
  return () => {
    window.removeEventListener('storage', onStorage)
    window.removeEventListener(CHANGE_EVENT, onChange)
  }
}
