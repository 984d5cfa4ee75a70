import { useCallback, useState } from 'react'

/** How the last copy went: copied, failed (no clipboard, or no permission), or none yet. */
export type CopyOutcome = 'copied' | 'failed' | null

/**
 * A button's copy of a text to the clipboard, and how it went, for the status line beside it.
 * The clipboard needs a secure page and the browser's leave: without them the copy fails, and
 * the line tells the person to select the text and copy it themselves.
 */
export function useCopy(): { outcome: CopyOutcome; copy: (text: string) => void } {
  const [outcome, setOutcome] = useState<CopyOutcome>(null)
  const copy = useCallback((text: string) => {
    const done = navigator.clipboard?.writeText(text) ?? Promise.reject(new Error('no clipboard'))
    done.then(
      () => setOutcome('copied'),
      () => setOutcome('failed'),
    )
  }, [])
  return { outcome, copy }
}
