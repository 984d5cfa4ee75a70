import { Fragment } from 'react'

/**
 * An e-mail address shown whole, never cut: an admin decides on its domain. Where it must wrap,
 * it wraps after the "@" and before each dot of the domain (<wbr>), the places a reader expects;
 * a single part too long for the line breaks anywhere rather than overflow.
 */
export function WholeEmail({ email, className }: { email: string; className?: string }) {
  const at = email.lastIndexOf('@')
  const local = at < 0 ? email : email.slice(0, at + 1)
  const domain = at < 0 ? [] : email.slice(at + 1).split('.')
  return (
    <span className={className} style={{ display: 'block', overflowWrap: 'anywhere' }}>
      {local}
      {domain.map((part, index) => (
        <Fragment key={index}>
          <wbr />
          {index > 0 && '.'}
          {part}
        </Fragment>
      ))}
    </span>
  )
}
