import { Fragment } from 'react'

/**
 * An e-mail address shown whole, never cut: an admin decides on its domain. Where it must wrap,
 * it wraps after the "@" and before a dot (<wbr>), the places a reader expects, never mid-word;
 * only a single part too long for the whole line breaks inside rather than overflow
 * (break-word, which unlike "anywhere" does not let a table squeeze its column below a part).
 */
export function WholeEmail({ email, className }: { email: string; className?: string }) {
  const at = email.lastIndexOf('@')
  const local = at < 0 ? email : email.slice(0, at + 1)
  const domain = at < 0 ? null : email.slice(at + 1)
  const dotted = (text: string) =>
    text.split('.').map((part, index) => (
      <Fragment key={index}>
        {index > 0 && (
          <>
            <wbr />.
          </>
        )}
        {part}
      </Fragment>
    ))
  return (
    <span className={className} style={{ display: 'block', overflowWrap: 'break-word' }}>
      {dotted(local)}
      {domain !== null && (
        <>
          <wbr />
          {dotted(domain)}
        </>
      )}
    </span>
  )
}
