import type { SessionLimits } from './idle-schedule'
import { LAST_CALL_KEY } from './last-call'

/**
 * What every tab of this browser knows about the session's use, in localStorage so that the
 * tabs share one idle timer: use in one keeps the others from warning, and "Continuar conectado"
 * in one closes the warning in all (their `storage` events). The last call's time is written by
 * api-client through last-call.ts.
 */
export const LIMITS_KEY = 'painel:session-limits'

function write(key: string, value: string): void {
  try {
    window.localStorage.setItem(key, value)
  } catch {
    // No storage: this tab keeps its own timer only.
  }
}

function read(key: string): string | null {
  try {
    return window.localStorage.getItem(key)
  } catch {
    return null
  }
}

export function readLastCall(): number | null {
  const value = Number(read(LAST_CALL_KEY))
  return Number.isFinite(value) && value > 0 ? value : null
}

export function saveLimits(limits: SessionLimits): void {
  write(LIMITS_KEY, JSON.stringify(limits))
}

export function readLimits(): SessionLimits | null {
  try {
    const value = JSON.parse(read(LIMITS_KEY) ?? 'null') as Partial<SessionLimits> | null
    if (
      value !== null &&
      typeof value.id === 'string' &&
      [value.idleExpiresAt, value.expiresAt, value.idleTimeoutMs].every(
        (figure) => typeof figure === 'number' && Number.isFinite(figure),
      )
    ) {
      return value as SessionLimits
    }
  } catch {
    // Broken JSON: as if nothing were known yet.
  }
  return null
}

/** Calls back when another tab changes what is known. */
export function subscribeToActivity(onChange: () => void): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key === LAST_CALL_KEY || event.key === LIMITS_KEY || event.key === null) onChange()
  }
  window.addEventListener('storage', onStorage)
  return () => window.removeEventListener('storage', onStorage)
}
