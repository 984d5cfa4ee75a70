import { Fragment, type ReactNode } from 'react'

/** The words a line must not split at their hyphen ("e- / mail"), wherever they stand. */
const HYPHENATED = /(e-mails?)/i

/** An e-mail address in running text: its domain's labels end before a closing full stop. */
const ADDRESS = /([^\s@()«»"“”<>]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+)/

/** A hyphen with the character after it: a line may break between them, and must not here. */
const HYPHEN_AND_NEXT = /(-.)/

/**
 * An e-mail address that wraps only after its "@" or before a dot (<wbr>), never mid-name: a
 * hyphen and the character after it stand in a no-wrap span, which takes away the one break a
 * browser would make inside a name ("secretaria- / de"). Everything stays inline, so the text
 * is the address as written for copying and for accessible names (inline blocks, tried before,
 * made a screen reader's name of a dialog read the address in pieces). Only a single name too
 * long for the whole line still breaks inside, where the surrounding box allows (overflow-wrap:
 * break-word), rather than run off the screen.
 * Shared by running text (wholeWords) and Equipe's addresses (features/staff/whole-email.tsx).
 */
export function addressParts(address: string): ReactNode {
  // After the "@" (it stays at the line's end) and before each dot.
  return address.split(/(?<=@)|(?=\.)/).map((part, index) => (
    <Fragment key={index}>
      {index > 0 && <wbr />}
      {part.split(HYPHEN_AND_NEXT).map((piece, at) =>
        at % 2 === 1 ? (
          <span key={at} className="text-nowrap">
            {piece}
          </span>
        ) : (
          piece
        ),
      )}
    </Fragment>
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
      <Fragment key={index}>
        {index % 2 === 1 ? (
          <span style={{ overflowWrap: 'break-word' }}>{addressParts(part)}</span>
        ) : (
          keepEmailWord(part)
        )}
      </Fragment>
    ))
}
