import { CAlert } from '@coreui/react'

/** What the server answered to a submit, announced to screen readers as it appears. */
export function ServerMessage({
  text,
  color = 'danger',
}: {
  text: string | null
  color?: 'danger' | 'success' | 'info'
}) {
  if (text === null) return null
  return (
    <CAlert color={color} role={color === 'danger' ? 'alert' : 'status'} className="mb-3">
      {text}
    </CAlert>
  )
}
