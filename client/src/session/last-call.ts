/**
 * When this browser last used the session, in localStorage so that every tab shares one idle
 * timer (session/session-activity.ts reads it). Apart from the rest of that module because api-client
 * writes it after every call: it is in the chunk every cold load, the sign-in page's too,
 * downloads, and the readers are needed by the signed-in layout only.
 */
export const LAST_CALL_KEY = 'painel:last-call'

/** Called by api-client after every successful call made with the session: the server slid it. */
export function noteAuthenticatedCall(): void {
  try {
    window.localStorage.setItem(LAST_CALL_KEY, String(Date.now()))
  } catch {
    // No storage: this tab keeps its own timer only.
  }
}
