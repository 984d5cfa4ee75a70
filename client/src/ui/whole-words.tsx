import { Fragment, type ReactNode } from 'react'

/** The words a line must not split at their hyphen ("e- / mail"), wherever they stand. */
const HYPHENATED = /(e-mails?)/i

/** An e-mail address in running text: its domain's labels end before a closing full stop. */
const ADDRESS = /([^\s@()«»"“”<>]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+)/

/**
 * An address that may wrap only after its "@" or before a dot: each part is an inline block,
 * which a line breaks between, never inside, unless the part alone is wider than the line. Plain
 * text in a notice broke mid-name on a phone ("albuq / uerque", "secretaria- / de").
 */
function addressParts(address: string): ReactNode {
  // After the "@" (it stays at the line's end) and before each dot.
  return address.split(/(?<=@)|(?=\.)/).map((part, index) => (
    <span
      key={index}
      style={{ display: 'inline-block', maxWidth: '100%', overflowWrap: 'break-word' }}
    >
      {part}
    </span>
  ))
}

/** "e-mail" kept on one line: each one in a no-wrap span. */
function keepEmailWord(text: string): ReactNode {
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

/**
 * Running text whose words stay whole: "e-mail" on one line, and an e-mail address broken only
 * after its "@" or before a dot. The text itself is unchanged (an ordinary hyphen, the address as
 * written, so copying, search and the tests read what they always did). The shared frames
 * (Notice, AccountCard, PublicCard, ConfirmDialog) pass their words through it, so the messages
 * need no markup of their own.
 */
export function wholeWords(text: string): ReactNode {
  if (!ADDRESS.test(text)) return keepEmailWord(text)
  return text
    .split(ADDRESS)
    .map((part, index) => (
      <Fragment key={index}>{index % 2 === 1 ? addressParts(part) : keepEmailWord(part)}</Fragment>
    ))
}
