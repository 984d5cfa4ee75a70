import type { ReactNode } from 'react'
import { BrandMark } from './brand-mark'
import { messages } from '../words/messages'
import { ColorModeButtons } from '../theme/color-mode-buttons'

/** The frame of the 404 and 500 pages: a big code, what happened, and ways out. */
export function StatusFrame({
  code,
  title,
  text,
  children,
}: {
  code: string
  title: string
  text: string
  children: ReactNode
}) {
  return (
    <main className="painel-public position-relative min-vh-100 d-flex align-items-center justify-content-center p-3 pt-5">
      <ColorModeButtons className="position-absolute top-0 end-0 m-3" />
      <div className="painel-status text-center">
        <div className="d-flex align-items-center justify-content-center gap-2 mb-4">
          <BrandMark size={32} />
          <span className="fs-5 fw-semibold">{messages.app.name}</span>
        </div>
        <p className="display-3 fw-bold mb-0" aria-hidden="true">
          {code}
        </p>
        <h1 className="h3">{title}</h1>
        <p className="text-body-secondary">{text}</p>
        <div className="d-flex gap-2 justify-content-center flex-wrap">{children}</div>
      </div>
    </main>
  )
}
