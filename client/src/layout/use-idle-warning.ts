import { useCallback, useEffect, useState } from 'react'
import { ApiError } from '../session/api-client'
import { fetchCurrentSession, renewSession, type CurrentSession } from '../session/session-api'
import { idleEndAfter } from '../../../common/session-idle'
import { idleSchedule, type SessionLimits } from '../session/idle-schedule'
import {
  readLastCall,
  readLimits,
  saveLimits,
  subscribeToActivity,
} from '../session/session-activity'

/** Timers further out than this are set again later (setTimeout's limit is about 24.8 days). */
const LONGEST_TIMER_MS = 2 ** 31 - 1

/**
 * The server's figures in this browser's clock. A renewal's `idleExpiresAt` is the server's "now"
 * plus the timeout and its write interval, which gives the difference between the two clocks.
 */
function limitsOf(session: CurrentSession, renewedAt: number | null): SessionLimits {
  const idleTimeoutMs = session.idleTimeoutSeconds * 1000
  const idleExpiresAt = Date.parse(session.idleExpiresAt)
  const offset = renewedAt === null ? 0 : idleExpiresAt - idleEndAfter(renewedAt, idleTimeoutMs)
  return {
    id: session.id,
    idleExpiresAt: idleExpiresAt - offset,
    expiresAt: Date.parse(session.expiresAt) - offset,
    idleTimeoutMs,
  }
}

export interface IdleWarning {
  /** The warning is due: the earliest the session can end (this browser's clock), else null. */
  endsAt: number | null
  /** "Continuar conectado": slides the idle end now, in every tab. */
  renew: () => Promise<void>
}

/**
 * The idle timer of the signed-in layout, shared by the tabs: warns two minutes before the
 * session can end for lack of use, and once it surely has, asks the server, whose 401 then takes
 * the person to the login page saying why (api-client.ts). Opening the panel counts as use: the
 * layout renews the session when it mounts, which also tells it the server's figures.
 */
export function useIdleWarning(): IdleWarning {
  const [endsAt, setEndsAt] = useState<number | null>(null)
  const [version, setVersion] = useState(0)

  const renew = useCallback(async () => {
    const answer = await renewSession()
    saveLimits(limitsOf(answer, Date.now()))
    setVersion((value) => value + 1)
  }, [])

  useEffect(() => {
    renewSession().then(
      (answer) => {
        saveLimits(limitsOf(answer, Date.now()))
        setVersion((value) => value + 1)
      },
      () => {
        // A server without these calls (API_UPSTREAM, older) or a network blip: no warning, and
        // the next call's 401, if any, still says why the session ended.
      },
    )
  }, [])

  useEffect(() => subscribeToActivity(() => setVersion((value) => value + 1)), [])

  useEffect(() => {
    const limits = readLimits()
    if (limits === null) return
    const schedule = idleSchedule(limits, readLastCall())
    const timers: ReturnType<typeof setTimeout>[] = []
    const at = (moment: number, run: () => void) => {
      const wait = Math.max(0, moment - Date.now())
      if (wait <= LONGEST_TIMER_MS) timers.push(setTimeout(run, wait))
    }
    // Closed until the warning is due (another tab's renewal moves it away: closed again here).
    at(0, () => setEndsAt(Date.now() >= schedule.warnAt ? schedule.endsAt : null))
    at(schedule.warnAt, () => setEndsAt(schedule.endsAt))
    at(schedule.checkAt, () => {
      // Over by now: the server's 401 ends it here, saying why. Should it still be open (the
      // clocks differ more than thought), its answer is the new figures.
      fetchCurrentSession().then(
        (session) => {
          saveLimits(limitsOf(session, null))
          setVersion((value) => value + 1)
        },
        (error: unknown) => {
          if (!(error instanceof ApiError && error.status === 401)) {
            setVersion((value) => value + 1)
          }
        },
      )
    })
    return () => timers.forEach(clearTimeout)
  }, [version])

  return { endsAt, renew }
}
