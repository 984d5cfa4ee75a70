import { CCard, CCardBody } from '@coreui/react'
import { useState } from 'react'
import { NewPasswordFields } from '../../forms/account-fields'
import { PasswordField } from '../../forms/password-field'
import { validateChangePassword, type ChangePasswordField } from '../../forms/auth-validation'
import { Notice } from '../../ui/notice'
import { SubmitButton } from '../../forms/submit-button'
import { useFormSubmit } from '../../forms/use-form-submit'
import { changePassword } from './my-account-api'
import { accountMessages } from './my-account-messages'

const FIELDS: readonly ChangePasswordField[] = ['currentPassword', 'password', 'confirmPassword']
const text = accountMessages.profile
/** A wrong current password is that field's problem: said under it, not above the form. */
const FIELD_OF_ERROR = { wrong_password: 'currentPassword' } as const
/** The server's refusal of the new password (a common one) is said under it. */
const FIELD_OF_KIND = { password: 'password' } as const

/** Minha conta › Alterar senha: keeps this session, ends the others (see the API). */
export function ChangePasswordForm() {
  const [done, setDone] = useState(false)
  const [round, setRound] = useState(0)
  const form = useFormSubmit({
    fields: FIELDS,
    validate: validateChangePassword,
    fieldOfError: FIELD_OF_ERROR,
    fieldOfKind: FIELD_OF_KIND,
    submit: async ({ currentPassword, password }) => {
      setDone(false)
      await changePassword(currentPassword, password)
      setDone(true)
      // A new key empties the fields: the old values are not left lying in the form.
      setRound((value) => value + 1)
    },
  })

  return (
    <CCard className="painel-narrow mt-4">
      <CCardBody>
        <h2 className="h5">{text.changePassword}</h2>
        {done && <Notice color="success" text={text.changed} />}
        <form key={round} noValidate onSubmit={form.onSubmit} aria-busy={form.sending}>
          <Notice text={form.serverError} />
          <PasswordField
            {...form.field('currentPassword')}
            label={text.currentPassword}
            autoComplete="current-password"
          />
          <NewPasswordFields
            password={form.field('password')}
            confirmation={form.field('confirmPassword')}
            passwordLabel={text.newPassword}
            confirmationLabel={text.confirmPassword}
          />
          <SubmitButton label={text.save} sending={form.sending} />
        </form>
      </CCardBody>
    </CCard>
  )
}
