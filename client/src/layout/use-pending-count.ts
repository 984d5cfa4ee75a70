import { useCallback, useEffect, useState } from 'react'
import type { StaffList } from '../../../common/api/staff'
import { apiRequest } from '../session/api-client'
import { STAFF_CHANGED_EVENT } from '../api/staff-changed-event'
import { useRefreshOnFocus } from '../api/use-refresh-on-focus'

/** The count of waiting registrations, asked every minute: not the person's use. */
const countPendingInBackground = (signal: AbortSignal) =>
  apiRequest<StaffList>('staff?status=pending&pageSize=1', {
    signal,
    background: true,
  })

/** How often the sidebar asks again while the tab stays open and in view. */
const EVERY_MS = 60_000

/** What waits for the person's decision; null where they may not decide it, or while unknown. */
export interface PendingCounts {
  /** Registrations waiting for approval (staff.approve). */
  registrations: number | null
  /** Requests for deletion waiting for a decision (staff.delete; the server counts them). */
  deletionRequests: number | null
}

/**
 * The number of registrations waiting, for whoever may approve them, and of open requests for
 * deletion, for whoever may decide them (the same answer carries both):
 * asked when the layout opens, every minute, when the tab comes back into view, and at once
 * when someone acts in Equipe or on a request.
 */
export function usePendingCount(mayApprove: boolean, mayDelete: boolean): PendingCounts {
  // The last answer, whole: both counts are read from it.
  const [list, setList] = useState<StaffList | null>(null)
  const asking = mayApprove || mayDelete
  const [asks, setAsks] = useState(0)
  const askAgain = useCallback(() => setAsks((value) => value + 1), [])
  useRefreshOnFocus(askAgain)

  useEffect(() => {
    if (!asking) return
    const ask = () => setAsks((value) => value + 1)
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') ask()
    }, EVERY_MS)
    window.addEventListener(STAFF_CHANGED_EVENT, ask)
    return () => {
      clearInterval(timer)
      window.removeEventListener(STAFF_CHANGED_EVENT, ask)
    }
  }, [asking])

  useEffect(() => {
    if (!asking) return
    const controller = new AbortController()
    countPendingInBackground(controller.signal).then(
      setList,
      // A badge is a hint: on failure it keeps what it showed.
      () => undefined,
    )
    return () => controller.abort()
  }, [asking, asks])

  return {
    registrations: mayApprove && list ? list.total : null,
    deletionRequests: mayDelete ? (list?.openDeletionRequests ?? null) : null,
  }
}
