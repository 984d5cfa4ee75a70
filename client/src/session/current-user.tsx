import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  type ReactNode,
} from 'react'
import type { SignedInUser } from '../../../common/api/account'
import { errorMessage, MFA_SETUP_EVENT } from './api-client'
import { fetchCurrentUser } from './session-api'
import { followSessionEnd } from './session-events'
import { useSessionToken } from './use-session-token'

export interface CurrentUser {
  /** With `mfaSetupRequired: true` when a second factor must be set up first (MFA_REQUIRED). */
  user: SignedInUser | null
  /** The server's message when the user could not be loaded. */
  error: string | null
  loading: boolean
  /** Asks the server again (a second factor was just set up). */
  refresh: () => void
}

const CurrentUserContext = createContext<CurrentUser>({
  user: null,
  error: null,
  loading: true,
  refresh: () => {},
})

/** What the server said for one token: a later token's answer never shows for an earlier one. */
interface Answer {
  token: string
  user: SignedInUser | null
  error: string | null
}

/**
 * The signed-in user (GET /api/auth/me), loaded when the layout opens and again whenever the
 * token changes (another tab signed in as someone else), shared by the header, the dashboard and
 * Minha conta. A 401 ends the session (see api-client.ts), and so does the session's stream
 * the moment the session is ended elsewhere (session-events.ts). Asked again after a call is refused
 * with 403 mfa_setup_required (MFA_SETUP_EVENT), so the layout takes the person to set one up.
 */
export function CurrentUserProvider({ children }: { children: ReactNode }) {
  const token = useSessionToken()
  const [answer, setAnswer] = useState<Answer | null>(null)
  const [asks, setAsks] = useState(0)
  const refresh = useCallback(() => setAsks((value) => value + 1), [])

  useEffect(() => {
    window.addEventListener(MFA_SETUP_EVENT, refresh)
    return () => window.removeEventListener(MFA_SETUP_EVENT, refresh)
  }, [refresh])

  // Signed out at once, and shown why, when the session is ended anywhere (session-events.ts).
  useEffect(() => {
    if (token === null) return
    const controller = new AbortController()
    followSessionEnd(token, controller.signal)
    return () => controller.abort()
  }, [token])

  useEffect(() => {
    if (token === null) return
    const controller = new AbortController()
    fetchCurrentUser(controller.signal).then(
      ({ user }) => setAnswer({ token, user, error: null }),
      (error: unknown) => {
        if (controller.signal.aborted) return
        setAnswer({
          token,
          user: null,
          error: errorMessage(error),
        })
      },
    )
    return () => controller.abort()
  }, [token, asks])

  const value = useMemo<CurrentUser>(
    () =>
      answer !== null && answer.token === token
        ? { user: answer.user, error: answer.error, loading: false, refresh }
        : { user: null, error: null, loading: true, refresh },
    [answer, token, refresh],
  )
  return <CurrentUserContext.Provider value={value}>{children}</CurrentUserContext.Provider>
}

export function useCurrentUser(): CurrentUser {
  return useContext(CurrentUserContext)
}
