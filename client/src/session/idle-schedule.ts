import { idleWriteIntervalMs } from '../../../common/session-idle'

/**
 * When to warn that the session is about to end for lack of use, and when to look whether it
 * has. Pure figures, tested on their own (idle-schedule.test.ts).
 *
 * The server slides a session's idle end with every authenticated call but writes the last use
 * at most once per interval, and ends the session a timeout plus that interval after the use it
 * wrote (common/session-idle.ts). So after a call at `lastCallAt` its true end lies between
 * `lastCallAt + timeout` and `lastCallAt + timeout + interval`; an answer of
 * GET /api/me/session or POST /renew gives it exactly (`idleExpiresAt`).
 */
const WARN_BEFORE_MS = 2 * 60 * 1000

/**
 * How long before the end the warning opens: two minutes, or half the timeout when that is
 * shorter. With a timeout of a minute or two (SESSION_IDLE_TIMEOUT allows 60 s) a two-minute
 * warning would open with every use, before the person had stopped working.
 */
function warnBeforeMs(idleTimeoutMs: number): number {
  return Math.min(WARN_BEFORE_MS, Math.floor(idleTimeoutMs / 2))
}
/** After the latest possible end, a little more, so the server has surely ended it too. */
const CHECK_MARGIN_MS = 1000

export interface SessionLimits {
  /** The session these figures are of (a new sign-in has new ones). */
  id: string
  idleExpiresAt: number
  expiresAt: number
  idleTimeoutMs: number
}

export interface IdleSchedule {
  /** When the warning opens: warnBeforeMs before the earliest the session can end. */
  warnAt: number
  /** The earliest the session can end for lack of use (what the warning counts down to). */
  endsAt: number
  /**
   * When to ask the server whether the session is over (its 401 then says why): once it surely
   * is, idle or past its absolute end. Asking earlier would itself be use, and slide it.
   */
  checkAt: number
  /** The absolute end comes first: renewing cannot help, so there is no warning. */
  absoluteFirst: boolean
}

export function idleSchedule(limits: SessionLimits, lastCallAt: number | null): IdleSchedule {
  const interval = idleWriteIntervalMs(limits.idleTimeoutMs)
  const lastWrittenAt = limits.idleExpiresAt - limits.idleTimeoutMs - interval
  const calledAfter = lastCallAt !== null && lastCallAt > lastWrittenAt
  const endsAt = calledAfter
    ? Math.max(limits.idleExpiresAt, lastCallAt + limits.idleTimeoutMs)
    : limits.idleExpiresAt
  const latestEnd = calledAfter
    ? Math.max(limits.idleExpiresAt, lastCallAt + limits.idleTimeoutMs + interval)
    : limits.idleExpiresAt
  const absoluteFirst = limits.expiresAt <= endsAt
  return {
    warnAt: absoluteFirst ? Number.POSITIVE_INFINITY : endsAt - warnBeforeMs(limits.idleTimeoutMs),
    endsAt: absoluteFirst ? limits.expiresAt : endsAt,
    checkAt: Math.min(latestEnd, limits.expiresAt) + CHECK_MARGIN_MS,
    absoluteFirst,
  }
}
