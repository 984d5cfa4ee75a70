import { useSyncExternalStore } from 'react'
import { readToken, subscribeToToken } from './token'

/** The current session token (or null), re-rendering when it changes here or in another tab. */
export function useSessionToken(): string | null {
  return useSyncExternalStore(subscribeToToken, readToken, () => null)
}
