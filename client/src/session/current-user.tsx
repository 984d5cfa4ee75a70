import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from 'react'
import { errorMessage } from '../lib/api-client'
import { fetchCurrentUser, type User } from '../lib/auth-api'
import { useSessionToken } from './use-session-token'

export interface CurrentUser {
  user: User | null
  /** The server's message when the user could not be loaded. */
  error: string | null
  loading: boolean
}

const CurrentUserContext = createContext<CurrentUser>({ user: null, error: null, loading: true })

/** What the server said for one token: a later token's answer never shows for an earlier one. */
interface Answer {
  token: string
  user: User | null
  error: string | null
}

/**
 * The signed-in user (GET /api/auth/me), loaded when the layout opens and again whenever the
 * token changes (another tab signed in as someone else), shared by the header, the dashboard and
 * Minha conta. A 401 ends the session (see api-client.ts).
 */
export function CurrentUserProvider({ children }: { children: ReactNode }) {
  const token = useSessionToken()
  const [answer, setAnswer] = useState<Answer | null>(null)

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
  }, [token])

  const value = useMemo<CurrentUser>(
    () =>
      answer !== null && answer.token === token
        ? { user: answer.user, error: answer.error, loading: false }
        : { user: null, error: null, loading: true },
    [answer, token],
  )
  return <CurrentUserContext.Provider value={value}>{children}</CurrentUserContext.Provider>
}

export function useCurrentUser(): CurrentUser {
  return useContext(CurrentUserContext)
}
