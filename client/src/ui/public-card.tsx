import { CCard, CCardBody, CCol, CContainer, CRow } from '@coreui/react'
import type { ReactNode } from 'react'
import { messages } from '../words/messages'
import { BrandMark } from './brand-mark'
import { ColorModeButtons } from '../theme/color-mode-buttons'
import { wholeWords } from './whole-words'

/** The frame of the public pages: the brand above a centred card, on the page background. */
export function PublicCard({
  title,
  subtitle,
  children,
}: {
  title: string
  subtitle?: string
  children: ReactNode
}) {
  return (
    <main className="painel-public position-relative min-vh-100 d-flex flex-row align-items-center pt-5 pb-4">
      <CContainer>
        <CRow className="justify-content-center">
          <CCol md={8} lg={6} xl={5}>
            <div className="d-flex align-items-center justify-content-center gap-2 mb-4">
              <BrandMark size={36} />
              <span className="fs-4 fw-semibold">{messages.app.name}</span>
            </div>
            <CCard className="p-md-3">
              <CCardBody>
                <h1 className="h3">{wholeWords(title)}</h1>
                {subtitle && <p className="text-body-secondary">{wholeWords(subtitle)}</p>}
                {children}
              </CCardBody>
            </CCard>
          </CCol>
        </CRow>
      </CContainer>
      {/*
        After the card in the page's order, shown at the top right: the first Tab goes to the
        form, the colour is chosen once if ever. The build's prerender leaves the buttons out,
        so the hydrated markup is the same wherever they stand.
      */}
      <ColorModeButtons className="position-absolute top-0 end-0 m-3" />
    </main>
  )
}
