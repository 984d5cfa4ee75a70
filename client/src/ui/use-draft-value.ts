import { useEffect, useRef, useState } from 'react'

/** How long typing pauses before a search or a typed date is applied. */
export const APPLY_AFTER_MS = 500

/**
 * A filter typed a character at a time (a search, a day): the field shows what is typed, and the
 * value is applied after a pause, or at once on Enter or when the field is left, so that each
 * keystroke (each digit of a year) is not a query of its own. When the applied value changes by
 * other means ("Limpar filtros", the back button), the field shows it and what was pending is
 * dropped; the value this field applied itself coming back is not such a change, so what was
 * typed meanwhile stays.
 */
export function useDraftValue(
  applied: string,
  apply: (value: string) => void,
  normalize: (value: string) => string = (value) => value,
) {
  const [draft, setDraft] = useState(applied)
  const typed = useRef(applied)
  const sent = useRef(applied)
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  const latest = useRef({ apply, normalize })
  useEffect(() => {
    latest.current = { apply, normalize }
  })

  useEffect(() => {
    if (applied === sent.current) return
    sent.current = applied
    typed.current = applied
    clearTimeout(timer.current)
    setDraft(applied)
  }, [applied])
  useEffect(() => () => clearTimeout(timer.current), [])

  const commit = () => {
    clearTimeout(timer.current)
    const value = latest.current.normalize(typed.current)
    if (value === sent.current) return
    sent.current = value
    latest.current.apply(value)
  }

  return {
    value: draft,
    change: (value: string) => {
      typed.current = value
      setDraft(value)
      clearTimeout(timer.current)
      timer.current = setTimeout(commit, APPLY_AFTER_MS)
    },
    /** Applies what is typed now (Enter, leaving the field). */
    commit,
  }
}
