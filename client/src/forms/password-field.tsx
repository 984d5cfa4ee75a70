import { CFormInput, CFormLabel, CFormText } from '@coreui/react'
import { useId, useState, type KeyboardEvent, type ReactNode } from 'react'
import { messages } from '../words/messages'
import type { FieldBinding } from './form-field'

/** An eye; crossed out while the password is shown (pressing again hides it). */
function EyeIcon({ crossed }: { crossed: boolean }) {
  return (
    <svg
      width="20"
      height="20"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d="M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12z" />
      <circle cx="12" cy="12" r="3" />
      {crossed && <path d="M3 3l18 18" />}
    </svg>
  )
}

/**
 * A password field, the sign-in's and every other form's: a button shows what was typed (on a
 * phone a typo is easy and invisible), and a warning says when Caps Lock is on, the usual reason
 * a right password fails. The button is a toggle (aria-pressed) with a fixed name, so a screen
 * reader says its state. `hint` stands under the field; `after` (a new password's strength)
 * comes below it, inside the field's spacing, so the next label does not touch it.
 */
export function PasswordField({
  name,
  label,
  autoComplete,
  error,
  onEdit,
  hint,
  after,
}: FieldBinding & {
  label: string
  autoComplete: 'current-password' | 'new-password'
  hint?: string
  after?: ReactNode
}) {
  const id = useId()
  const errorId = `${id}-error`
  const capsId = `${id}-caps`
  const hintId = `${id}-hint`
  const [shown, setShown] = useState(false)
  const [capsLock, setCapsLock] = useState(false)
  const readCapsLock = (event: KeyboardEvent<HTMLInputElement>) =>
    setCapsLock(event.getModifierState('CapsLock'))
  const describedBy = [hint ? hintId : null, error ? errorId : null, capsLock ? capsId : null]
    .filter(Boolean)
    .join(' ')

  return (
    <div className="mb-3">
      <CFormLabel htmlFor={id}>{label}</CFormLabel>
      <div className="input-group">
        <CFormInput
          id={id}
          name={name}
          type={shown ? 'text' : 'password'}
          autoComplete={autoComplete}
          autoCapitalize="none"
          spellCheck={false}
          invalid={error !== undefined}
          aria-invalid={error !== undefined}
          aria-describedby={describedBy || undefined}
          onChange={(event) => onEdit(event.target.value)}
          onKeyDown={readCapsLock}
          onKeyUp={readCapsLock}
          onBlur={() => setCapsLock(false)}
        />
        <button
          type="button"
          className="btn btn-outline-secondary d-flex align-items-center"
          aria-label={messages.passwordField.show}
          aria-pressed={shown}
          aria-controls={id}
          title={messages.passwordField.show}
          onClick={() => setShown((value) => !value)}
        >
          <EyeIcon crossed={shown} />
        </button>
      </div>
      {error && (
        <div id={errorId} className="invalid-feedback d-block" role="alert">
          {error}
        </div>
      )}
      {capsLock && (
        <div id={capsId} className="form-text text-warning-emphasis" role="status">
          {messages.passwordField.capsLock}
        </div>
      )}
      {hint && <CFormText id={hintId}>{hint}</CFormText>}
      {after}
    </div>
  )
}
