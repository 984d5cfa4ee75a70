import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../../common/password-policy'
import { messages } from '../messages'
import { FormField, type FieldBinding } from './form-field'

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

/** A new password, with the length rule as its hint, and its confirmation. */
export function NewPasswordFields({
  password,
  confirmation,
  passwordLabel,
  confirmationLabel,
}: {
  password: FieldBinding
  confirmation: FieldBinding
  passwordLabel: string
  confirmationLabel: string
}) {
  return (
    <>
      <FormField
        {...password}
        label={passwordLabel}
        type="password"
        autoComplete="new-password"
        hint={messages.forms.passwordHint(PASSWORD_MIN_LENGTH, PASSWORD_MAX_LENGTH)}
      />
      <FormField
        {...confirmation}
        label={confirmationLabel}
        type="password"
        autoComplete="new-password"
      />
    </>
  )
}
