import { CButton, CSpinner } from '@coreui/react'
import { adminMessages } from '../words/admin-messages'

/**
 * A list's "Atualizar": while the list is being fetched it spins and is busy and disabled, so a
 * click visibly does something and cannot be repeated. Disabled with aria-disabled rather than
 * `disabled`, so that the button keeps the keyboard focus of whoever pressed it.
 */
export function RefreshButton({ busy, onClick }: { busy: boolean; onClick: () => void }) {
  return (
    <CButton
      color="secondary"
      variant="outline"
      className={busy ? 'disabled' : undefined}
      aria-disabled={busy}
      aria-busy={busy}
      onClick={() => {
        if (!busy) onClick()
      }}
    >
      {busy && <CSpinner as="span" size="sm" aria-hidden="true" className="me-2" />}
      {adminMessages.refresh}
    </CButton>
  )
}
