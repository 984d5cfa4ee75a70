import { useState } from 'react'
import { Link } from 'react-router-dom'
import { paths } from '../../routing/paths'
import { requestRegistration } from './registration-api'
import { validateRegister, type RegisterField } from '../../forms/auth-validation'
import { useFormSubmit } from '../../forms/use-form-submit'
import { registerMessages } from './registration-messages'
import { EmailField, NewPasswordFields } from '../../forms/account-fields'
import { FormField } from '../../forms/form-field'
import { PublicCard } from '../../ui/public-card'
import { Notice } from '../../ui/notice'
import { SubmitButton } from '../../forms/submit-button'

const FIELDS: readonly RegisterField[] = ['name', 'email', 'password', 'confirmPassword']
const text = registerMessages.register
/** The server's refusal of a field (a common password) is said under it and goes when it changes. */
const FIELD_OF_KIND = { name: 'name', email: 'email', password: 'password' } as const

export default function RegisterPage() {
  const [received, setReceived] = useState(false)
  const form = useFormSubmit({
    fields: FIELDS,
    validate: validateRegister,
    fieldOfKind: FIELD_OF_KIND,
    submit: async ({ name, email, password }) => {
      await requestRegistration(name.trim(), email, password)
      setReceived(true)
    },
  })

  if (received) {
    return (
      <PublicCard title={text.receivedTitle}>
        <Notice color="success" text={text.received} />
        <Link to={paths.login} className="btn btn-primary">
          {text.backToLogin}
        </Link>
      </PublicCard>
    )
  }

  return (
    <PublicCard title={text.title} subtitle={text.subtitle}>
      <form noValidate onSubmit={form.onSubmit} aria-busy={form.sending}>
        <Notice text={form.serverError} />
        <FormField {...form.field('name')} label={text.name} type="text" autoComplete="name" />
        <EmailField {...form.field('email')} label={text.email} />
        <NewPasswordFields
          password={form.field('password')}
          confirmation={form.field('confirmPassword')}
          passwordLabel={text.password}
          confirmationLabel={text.confirmPassword}
        />
        <SubmitButton label={text.submit} sending={form.sending} />
      </form>
      <hr />
      <p className="mb-0">
        {text.haveAccount} <Link to={paths.login}>{text.backToLogin}</Link>
      </p>
    </PublicCard>
  )
}
