import { CCard, CCardBody } from '@coreui/react'
import type { ReactNode } from 'react'
import { wholeWords } from './whole-words'

/**
 * One of Minha conta's security cards: its heading, a line on what it is for, its content (none:
 * the line is all there is to say).
 */
export function AccountCard({
  title,
  intro,
  children,
}: {
  title: string
  intro: string
  children?: ReactNode
}) {
  return (
    <CCard className="painel-narrow mt-4">
      <CCardBody>
        <h2 className="h5">{wholeWords(title)}</h2>
        <p className={children ? 'text-body-secondary' : 'text-body-secondary mb-0'}>
          {wholeWords(intro)}
        </p>
        {children}
      </CCardBody>
    </CCard>
  )
}
