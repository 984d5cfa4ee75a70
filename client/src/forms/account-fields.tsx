import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../../common/password-policy'
import { lazy, Suspense, useState } from 'react'
import { messages } from '../words/messages'
import { FormField, type FieldBinding } from './form-field'
import { PasswordField } from './password-field'

/** Loaded at the first key typed in a new password; if its chunk fails, the form goes on without it. */
const PasswordStrengthHint = lazy(() =>
  import('./password-strength-hint').catch(() => ({ default: () => null })),
)
const NO_INPUTS: string[] = []

/** Phones show the e-mail keyboard, and nothing capitalises or "corrects" the address. */
const EMAIL_INPUT = { inputMode: 'email', autoCapitalize: 'none', spellCheck: false } as const

/** The e-mail of an account: `username` where it signs in, so password managers pair it. */
export function EmailField({
  label,
  autoComplete = 'email',
  ...binding
}: FieldBinding & { label: string; autoComplete?: 'email' | 'username' }) {
  return (
    <FormField
      {...binding}
      label={label}
      type="email"
      autoComplete={autoComplete}
      inputProps={EMAIL_INPUT}
    />
  )
}

/**
 * A new password, with the length rule as its hint and a strength estimate as it is typed, and
 * its confirmation, each with the sign-in's show/hide button. `userInputs` (the name, the
 * e-mail) make the estimate count them as guessable.
 */
export function NewPasswordFields({
  password,
  confirmation,
  passwordLabel,
  confirmationLabel,
  userInputs = NO_INPUTS,
}: {
  password: FieldBinding
  confirmation: FieldBinding
  passwordLabel: string
  confirmationLabel: string
  userInputs?: string[]
}) {
  const [typed, setTyped] = useState('')
  return (
    <>
      <PasswordField
        {...password}
        onEdit={(value) => {
          password.onEdit(value)
          setTyped(value)
        }}
        label={passwordLabel}
        autoComplete="new-password"
        hint={messages.forms.passwordHint(PASSWORD_MIN_LENGTH, PASSWORD_MAX_LENGTH)}
        after={
          // The line is held from the first key, so that the estimate, which comes a moment
          // later, does not push the form's button down under a finger or pointer on its way.
          typed !== '' && (
            <div className="painel-strength-line">
              <Suspense fallback={null}>
                <PasswordStrengthHint password={typed} userInputs={userInputs} />
              </Suspense>
            </div>
          )
        }
      />
      <PasswordField {...confirmation} label={confirmationLabel} autoComplete="new-password" />
    </>
  )
}
