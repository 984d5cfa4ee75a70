import { createContext, useContext, useEffect, useState, type ReactNode } from 'react'
import { ApiError } from '../lib/api-client'
import { fetchCurrentUser, type User } from '../lib/auth-api'

export interface CurrentUser {
  user: User | null
  /** The server's message when the user could not be loaded. */
  error: string | null
  loading: boolean
}

const CurrentUserContext = createContext<CurrentUser>({ user: null, error: null, loading: true })

/**
 * The signed-in user (GET /api/auth/me), loaded once when the layout opens and shared by the
 * header, the dashboard and Minha conta. A 401 ends the session (see api-client.ts).
 */
export function CurrentUserProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<CurrentUser>({ user: null, error: null, loading: true })

  useEffect(() => {
    const controller = new AbortController()
    fetchCurrentUser(controller.signal).then(
      ({ user }) => setState({ user, error: null, loading: false }),
      (error: unknown) => {
        if (controller.signal.aborted) return
        const message = error instanceof ApiError ? error.message : String(error)
        setState({ user: null, error: message, loading: false })
      },
    )
    return () => controller.abort()
  }, [])

  return <CurrentUserContext.Provider value={state}>{children}</CurrentUserContext.Provider>
}

export function useCurrentUser(): CurrentUser {
  return useContext(CurrentUserContext)
}
