import { useCallback, useEffect, useRef, useState } from 'react'
import { errorMessage } from './api-client'

/** What a screen shows while it fetches its data: a spinner, the failure, or the data. */
export type Load<T> =
  | { state: 'loading' }
  | { state: 'failed'; message: string; error: unknown }
  | { state: 'ready'; data: T }

export interface Loaded<T> {
  load: Load<T>
  /** Fetches again (after a change, or the "try again" button), keeping what is shown meanwhile. */
  reload: () => void
  /** Replaces what is shown without fetching (an answer that already says the new state). */
  set: (load: Load<T>) => void
}

/**
 * The one data-loading hook of the screens: fetches with `fetch` when the screen opens and again
 * whenever `key` changes (the id or the filters it fetches for) or `reload()` is called, aborting
 * the previous request; `key` null fetches nothing. A failure's message is the API's (or
 * `fallbackMessage`). What was shown stays until the new answer comes, unless `loadingOnChange`
 * asks for the spinner again when `key` changes (a new filter is a new list).
 */
export function useLoad<T>(
  fetch: (signal: AbortSignal) => Promise<T>,
  key: string | null = '',
  options: { fallbackMessage?: string; loadingOnChange?: boolean } = {},
): Loaded<T> {
  const [load, set] = useState<Load<T>>({ state: 'loading' })
  const [reloads, setReloads] = useState(0)
  // The latest fetch and options, without making each render's new closure a reason to fetch.
  const latest = useRef({ fetch, options })
  useEffect(() => {
    latest.current = { fetch, options }
  })
  const shownKey = useRef(key)

  useEffect(() => {
    if (key === null) return
    if (shownKey.current !== key && latest.current.options.loadingOnChange) {
      set({ state: 'loading' })
    }
    shownKey.current = key
    const controller = new AbortController()
    latest.current.fetch(controller.signal).then(
      (data) => {
        if (!controller.signal.aborted) set({ state: 'ready', data })
      },
      (error: unknown) => {
        if (controller.signal.aborted) return
        set({
          state: 'failed',
          message: errorMessage(error, latest.current.options.fallbackMessage),
          error,
        })
      },
    )
    return () => controller.abort()
  }, [key, reloads])

  const reload = useCallback(() => setReloads((count) => count + 1), [])
  return { load, reload, set }
}
