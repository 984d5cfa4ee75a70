import { CFormInput, CFormLabel, CFormText } from '@coreui/react'
import { useId, type InputHTMLAttributes } from 'react'

type ExtraInputProps = Pick<
  InputHTMLAttributes<HTMLInputElement>,
  'inputMode' | 'autoCapitalize' | 'spellCheck' | 'maxLength'
> & {
  /** For a controlled field (its form keeps the value): set with `onEdit`. */
  value?: string
}

/**
 * What a field takes from its form (useFormSubmit's `field(name)`): name, message, and what to do
 * when it is edited (clear its message; a controlled form also keeps the value).
 */
export interface FieldBinding {
  name: string
  error: string | undefined
  onEdit: (value: string) => void
}

interface FormFieldProps extends FieldBinding {
  label: string
  type: 'text' | 'email' | 'password'
  autoComplete: string
  hint?: string
  inputProps?: ExtraInputProps
}

/**
 * A labelled input with its hint and its error. The error is announced when it appears
 * (role="alert") and tied to the input (aria-describedby), so a screen reader reads it again
 * when the focus lands on the field.
 */
export function FormField({
  name,
  label,
  type,
  autoComplete,
  error,
  hint,
  onEdit,
  inputProps,
}: FormFieldProps) {
  const id = useId()
  const hintId = `${id}-hint`
  const errorId = `${id}-error`
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ')
  return (
    <div className="mb-3">
      <CFormLabel htmlFor={id}>{label}</CFormLabel>
      <CFormInput
        id={id}
        name={name}
        type={type}
        autoComplete={autoComplete}
        invalid={error !== undefined}
        aria-invalid={error !== undefined}
        aria-describedby={describedBy || undefined}
        onChange={(event) => onEdit(event.target.value)}
        {...inputProps}
      />
      {/* The error right under its field, where the eye is; the standing hint after it. */}
      {error && (
        <div id={errorId} className="invalid-feedback d-block" role="alert">
          {error}
        </div>
      )}
      {hint && <CFormText id={hintId}>{hint}</CFormText>}
    </div>
  )
}
