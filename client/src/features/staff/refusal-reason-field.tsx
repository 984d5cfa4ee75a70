import { CFormLabel } from '@coreui/react'
import { useId } from 'react'
import { REFUSAL_REASON_MAX_LENGTH } from '../../../../common/api/staff'

/** The optional reason of a refusal, quoted in the mail: one person's or several people's. */
export function RefusalReasonField({
  label,
  value,
  onChange,
}: {
  label: string
  value: string
  onChange: (value: string) => void
}) {
  const id = useId()
  return (
    <div className="mb-3">
      <CFormLabel htmlFor={id}>{label}</CFormLabel>
      <textarea
        id={id}
        className="form-control"
        maxLength={REFUSAL_REASON_MAX_LENGTH}
        rows={2}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
    </div>
  )
}
