import { CButton } from '@coreui/react'
import { useId, useState, type ReactNode } from 'react'
import { adminMessages } from '../words/admin-messages'

/**
 * A screen's filters, for a form with role="search" (Equipe, Auditoria). On a phone they wait
 * behind a "Filtros" button that says how many are in use, so the list starts on the first
 * screen; from md up the button is gone and the filters sit in the form's row (app.css gives the
 * wrapper `display: contents` there).
 */
export function FoldedFilters({ active, children }: { active: number; children: ReactNode }) {
  const id = useId()
  const [shown, setShown] = useState(false)
  return (
    <>
      <CButton
        type="button"
        color="secondary"
        variant="outline"
        className="d-md-none"
        aria-expanded={shown}
        aria-controls={id}
        onClick={() => setShown((open) => !open)}
      >
        {adminMessages.filters(active)}
      </CButton>
      <div
        id={id}
        className={`folded-filters ${shown ? 'd-flex' : 'd-none'} flex-wrap align-items-start gap-2 w-100`}
      >
        {children}
      </div>
    </>
  )
}
