import { useCallback, useEffect, useRef, useState } from 'react'
import { errorMessage } from '../session/api-client'

/**
 * What a screen shows while it fetches its data: a spinner, the failure, or the data. Data whose
 * refresh failed (`keepOnFailure`) stays, with `staleBecause` saying why it may be out of date.
 */
export type Load<T> =
  | { state: 'loading' }
  | { state: 'failed'; message: string; error: unknown }
  | { state: 'ready'; data: T; staleBecause?: string }

export interface Loaded<T> {
  load: Load<T>
  /** Fetches again (after a change, or the "try again" button), keeping what is shown meanwhile. */
  reload: () => void
  /** Replaces what is shown without fetching (an answer that already says the new state). */
  set: (load: Load<T>) => void
  /** Whether a fetch is under way (the first one, a new key's or a reload): "Atualizar" says so. */
  busy: boolean
}

/**
 * The one data-loading hook of the screens: fetches with `fetch` when the screen opens and again
 * whenever `key` changes (the id or the filters it fetches for) or `reload()` is called, aborting
 * the previous request; `key` null fetches nothing. A failure's message is the API's (or
 * `fallbackMessage`). What was shown stays until the new answer comes, unless `loadingOnChange`
 * asks for the spinner again when `key` changes (a new filter is a new list). With
 * `keepOnFailure`, a failed fetch for the key already shown (a refresh while offline) keeps the
 * data and marks it stale instead of replacing a list someone is reading with an error.
 */
export function useLoad<T>(
  fetch: (signal: AbortSignal) => Promise<T>,
  key: string | null = '',
  options: { fallbackMessage?: string; loadingOnChange?: boolean; keepOnFailure?: boolean } = {},
): Loaded<T> {
  const [load, set] = useState<Load<T>>({ state: 'loading' })
  const [reloads, setReloads] = useState(0)
  // The fetch asked for (key and reload) and the last one answered: busy while they differ.
  const asked = key === null ? null : `${reloads} ${key}`
  const [answered, setAnswered] = useState<string | null>(null)
  // The latest fetch and options, without making each render's new closure a reason to fetch.
  const latest = useRef({ fetch, options })
  useEffect(() => {
    latest.current = { fetch, options }
  })
  const shownKey = useRef(key)

  useEffect(() => {
    if (key === null) return
    const sameKey = shownKey.current === key
    if (!sameKey && latest.current.options.loadingOnChange) {
      set({ state: 'loading' })
    }
    shownKey.current = key
    const fetching = `${reloads} ${key}`
    const controller = new AbortController()
    latest.current.fetch(controller.signal).then(
      (data) => {
        if (controller.signal.aborted) return
        set({ state: 'ready', data })
        setAnswered(fetching)
      },
      (error: unknown) => {
        if (controller.signal.aborted) return
        const message = errorMessage(error, latest.current.options.fallbackMessage)
        set((shown) =>
          sameKey && shown.state === 'ready' && latest.current.options.keepOnFailure
            ? { state: 'ready', data: shown.data, staleBecause: message }
            : { state: 'failed', message, error },
        )
        setAnswered(fetching)
      },
    )
    return () => controller.abort()
  }, [key, reloads])

  const reload = useCallback(() => setReloads((count) => count + 1), [])
  return { load, reload, set, busy: asked !== null && asked !== answered }
}
