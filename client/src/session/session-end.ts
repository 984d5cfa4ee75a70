import { parseJsonObject } from './json-object'

/**
 * Why this browser's last session ended, for the login page to say: the user's own "Sair", or
 * the server's 401 code (expired, ended elsewhere, account disabled, password changed). Kept in
 * localStorage so every tab, and the tab after a reload, says the same; a new sign-in forgets it.
 */
const KEY = 'painel:session-end'

/** Older than this, a record is yesterday's news, not why the login page is open now. */
const SHOWN_FOR_MS = 12 * 60 * 60 * 1000

export const SIGNED_OUT = 'signed_out'

export interface SessionEnd {
  /** `signed_out`, or the code of the server's 401 answer. */
  code: string
  /** The server's own (pt-BR) message, for a code this client does not know yet. */
  message: string | null
  at: number
}

export function recordSessionEnd(code: string, message: string | null = null): void {
  try {
    window.localStorage.setItem(KEY, JSON.stringify({ code, message, at: Date.now() }))
  } catch {
    // No storage: the login page then says the generic sentence, nothing breaks.
  }
}

export function forgetSessionEnd(): void {
  try {
    window.localStorage.removeItem(KEY)
  } catch {
    // As above.
  }
}

export function parseSessionEnd(raw: string | null, now: number): SessionEnd | null {
  const { code, message, at } = parseJsonObject(raw) ?? {}
  if (typeof code !== 'string' || !/^[a-z_]{1,40}$/.test(code)) return null
  if (typeof at !== 'number' || !(now - at >= 0 && now - at < SHOWN_FOR_MS)) return null
  return { code, message: typeof message === 'string' && message !== '' ? message : null, at }
}

export function readSessionEnd(): SessionEnd | null {
  try {
    return parseSessionEnd(window.localStorage.getItem(KEY), Date.now())
  } catch {
    return null
  }
}
