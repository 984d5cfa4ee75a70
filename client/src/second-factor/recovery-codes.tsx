import { CButton } from '@coreui/react'
import { useEffect, useRef } from 'react'
import { securityMessages } from './second-factor-messages'

const text = securityMessages.totp

/** The 10 recovery codes, shown once: read, downloaded as .txt, then put away. */
export function RecoveryCodesView({
  codes,
  email,
  onDone,
}: {
  codes: readonly string[]
  email: string
  onDone: () => void
}) {
  const heading = useRef<HTMLHeadingElement>(null)
  useEffect(() => {
    const card = heading.current?.closest('.card')
    heading.current?.focus()
    // Put away, the codes leave the page, and the focus with them: it goes to the card's
    // heading, above the status line that replaces them, rather than to the page's body.
    return () => {
      requestAnimationFrame(() => {
        const title = card?.isConnected ? card.querySelector<HTMLElement>('h2') : null
        if (!title || (document.activeElement && document.activeElement !== document.body)) return
        title.tabIndex = -1
        title.focus()
      })
    }
  }, [])

  const download = () => {
    const body = [text.fileHeader(email), '', ...codes, ''].join('\r\n')
    const url = URL.createObjectURL(new Blob([body], { type: 'text/plain;charset=utf-8' }))
    const link = document.createElement('a')
    link.href = url
    link.download = text.fileName
    link.click()
    setTimeout(() => URL.revokeObjectURL(url), 0)
  }

  return (
    <section aria-labelledby="painel-recovery-codes">
      <h3 id="painel-recovery-codes" ref={heading} tabIndex={-1} className="h6">
        {text.codesTitle}
      </h3>
      <p>{text.codesIntro}</p>
      {/* One column on a phone: a code cut in two lines is easy to copy wrong. */}
      <ol
        className="font-monospace row row-cols-1 row-cols-sm-2 g-1 ps-4 mb-3"
        aria-label={text.codesTitle}
      >
        {codes.map((code) => (
          <li key={code} className="col text-nowrap">
            {code}
          </li>
        ))}
      </ol>
      <div className="d-flex flex-wrap gap-2">
        <CButton color="secondary" variant="outline" onClick={download}>
          {text.download}
        </CButton>
        <CButton color="primary" onClick={onDone}>
          {text.saved}
        </CButton>
      </div>
    </section>
  )
}
