import { wholeWords } from './whole-words'

type NoticeColor = 'danger' | 'success' | 'warning' | 'info'

/**
 * A message in CoreUI's alert style, announced to screen readers as it appears: errors as an
 * alert, everything else as a status. CoreUI's CAlert is not used: these notices are never
 * dismissed, so its transition code is not needed, and it drags Popper onto the login page.
 */
export function Notice({ text, color = 'danger' }: { text: string | null; color?: NoticeColor }) {
  if (text === null) return null
  return (
    <div className={`alert alert-${color} mb-3`} role={color === 'danger' ? 'alert' : 'status'}>
      {wholeWords(text)}
    </div>
  )
}
