import { CButton, CSpinner } from '@coreui/react'
import { messages } from '../words/messages'

/** A form's submit button: disabled, with a small spinner and "…ing" text, while sending. */
export function SubmitButton({
  label,
  sendingLabel = messages.forms.sending,
  sending,
}: {
  label: string
  sendingLabel?: string
  sending: boolean
}) {
  return (
    <CButton type="submit" color="primary" className="px-4" disabled={sending}>
      {sending ? (
        <>
          <CSpinner as="span" size="sm" aria-hidden="true" className="me-2" />
          {sendingLabel}
        </>
      ) : (
        label
      )}
    </CButton>
  )
}
