/**
 * After a sign-in with a recovery code: how many codes the account has left, told once by the
 * signed-in layout (layout/recovery-codes-notice.tsx). Written as the session begins (saveToken
 * in token.ts, which also forgets an unsaid count at any other sign-in); it lives in this tab's
 * sessionStorage, so the screen the person lands on (any screen, not only Início) can say it,
 * and a reload or another tab does not say it again. Imported by token.ts, it sits in the shared
 * chunk: a chunk of its own would be one more request on every cold #/dashboard.
 */
const KEY = 'painel:recovery-codes-left'

export function noteRecoveryCodesLeft(left: number): void {
  try {
    window.sessionStorage.setItem(KEY, String(left))
  } catch {
    // No storage: nothing is said, and nothing breaks.
  }
}

/** The count noted and not yet shown, or null. */
export function readRecoveryCodesLeft(): number | null {
  try {
    return parseRecoveryCodesLeft(window.sessionStorage.getItem(KEY))
  } catch {
    return null
  }
}

export function forgetRecoveryCodesLeft(): void {
  try {
    window.sessionStorage.removeItem(KEY)
  } catch {
    // As above.
  }
}

/** A whole number of codes (an account has at most 10), or null for anything else. */
export function parseRecoveryCodesLeft(raw: string | null): number | null {
  if (raw === null || !/^\d{1,2}$/.test(raw)) return null
  return Number(raw)
}
