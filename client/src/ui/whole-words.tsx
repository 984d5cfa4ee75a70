import type { ReactNode } from 'react'

/** The words a line must not split at their hyphen ("e- / mail"), wherever they stand. */
const HYPHENATED = /(e-mails?)/i

/**
 * Running text with "e-mail" kept on one line: each one in a no-wrap span. The text itself is
 * unchanged (an ordinary hyphen, so copying, search and the tests read what they always did).
 * The shared frames (Notice, AccountCard, PublicCard, ConfirmDialog) pass their words through
 * it, so the messages need no markup of their own.
 */
export function wholeWords(text: string): ReactNode {
  if (!HYPHENATED.test(text)) return text
  return text.split(HYPHENATED).map((part, index) =>
    index % 2 === 1 ? (
      <span key={index} className="text-nowrap">
        {part}
      </span>
    ) : (
      part
    ),
  )
}
