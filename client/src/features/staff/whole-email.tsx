import { addressParts } from '../../ui/whole-words'

/**
 * An e-mail address shown whole, never cut: an admin decides on its domain. It wraps after the
 * "@" and before a dot, never inside a name, hyphens included (client/src/ui/whole-words.tsx);
 * only a single part too long for the whole line breaks inside rather than overflow
 * (break-word, which unlike "anywhere" does not let a table squeeze its column below a part).
 */
export function WholeEmail({ email, className }: { email: string; className?: string }) {
  return (
    <span className={className} style={{ display: 'block', overflowWrap: 'break-word' }}>
      {addressParts(email)}
    </span>
  )
}
