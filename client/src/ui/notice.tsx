import { useEffect, useRef } from 'react'
import { wholeWords } from './whole-words'

type NoticeColor = 'danger' | 'success' | 'warning' | 'info'

/**
 * A message in CoreUI's alert style, announced to screen readers as it appears: errors as an
 * alert, everything else as a status. CoreUI's CAlert is not used: these notices are never
 * dismissed, so its transition code is not needed, and it drags Popper onto the login page.
 *
 * A success takes the focus when it appears or changes, if the focus is lost (on <body>) or still
 * in the form that was sent: after a form is sent it often starts over or goes, and focus left on
 * <body> would send a keyboard or screen-reader user back to the top of the page. On the
 * message, they read what happened and the next Tab goes on from there. Every form that says
 * "done" through a Notice does so, not screen by screen; a place a screen chose itself keeps it.
 */
export function Notice({ text, color = 'danger' }: { text: string | null; color?: NoticeColor }) {
  const ref = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const active = document.activeElement
    // Not taken from a place the screen chose (a dialog's opener, the next row's button:
    // confirm-dialog.tsx), only from <body> or the form that was sent.
    if (
      color === 'success' &&
      text &&
      (!active || active === document.body || active.closest('form'))
    )
      ref.current?.focus()
  }, [color, text])
  if (text === null) return null
  // tabIndex -1: focusable by script (the success above), never a stop of Tab.
  return (
    <div
      ref={ref}
      tabIndex={-1}
      className={`alert alert-${color} mb-3`}
      role={color === 'danger' ? 'alert' : 'status'}
    >
      {wholeWords(text)}
    </div>
  )
}
