import { useState, type ReactNode } from 'react'

/**
 * One line, cut with an ellipsis when it does not fit, so a long name or e-mail never pushes the
 * actions out of view. The whole text shows on hover (title) and, for keyboard users, while the
 * text or the link inside it has the focus (it then wraps).
 */
export function TruncatedText({
  text,
  children,
  focusable = false,
  maxWidth = '100%',
}: {
  text: string
  /** What to show instead of the bare text (a link); it must contain the text. */
  children?: ReactNode
  /** Make the text itself focusable (when it holds no link). */
  focusable?: boolean
  maxWidth?: string
}) {
  const [expanded, setExpanded] = useState(false)
  return (
    <span
      title={text}
      tabIndex={focusable ? 0 : undefined}
      onFocus={() => setExpanded(true)}
      onBlur={() => setExpanded(false)}
      style={{
        display: 'block',
        maxWidth,
        overflow: 'hidden',
        textOverflow: 'ellipsis',
        whiteSpace: expanded ? 'normal' : 'nowrap',
        overflowWrap: 'anywhere',
      }}
    >
      {children ?? text}
    </span>
  )
}
