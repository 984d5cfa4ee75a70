import { useState } from 'react'
import { Link } from 'react-router-dom'
import { paths } from '../app/paths'
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../lib/account-rules'
import { requestRegistration } from '../lib/auth-api'
import { validateRegister, type RegisterField } from '../forms/auth-validation'
import { useDocumentTitle } from '../lib/use-document-title'
import { useFormSubmit } from '../forms/use-form-submit'
import { messages } from '../messages'
import { FormField } from '../forms/form-field'
import { PublicCard } from './public-card'
import { Notice } from '../lib/notice'
import { SubmitButton } from '../forms/submit-button'

const FIELDS: readonly RegisterField[] = ['name', 'email', 'password', 'confirmPassword']
const text = messages.register

export default function RegisterPage() {
  useDocumentTitle(text.title)
  const [received, setReceived] = useState(false)
  const form = useFormSubmit({
    fields: FIELDS,
    validate: validateRegister,
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
        <FormField
          name="name"
          label={text.name}
          type="text"
          autoComplete="name"
          error={form.errors.name}
          onEdit={() => form.clearError('name')}
        />
        <FormField
          name="email"
          label={text.email}
          type="email"
          autoComplete="email"
          error={form.errors.email}
          onEdit={() => form.clearError('email')}
          inputProps={{ inputMode: 'email', autoCapitalize: 'none', spellCheck: false }}
        />
        <FormField
          name="password"
          label={text.password}
          type="password"
          autoComplete="new-password"
          hint={text.passwordHint(PASSWORD_MIN_LENGTH, PASSWORD_MAX_LENGTH)}
          error={form.errors.password}
          onEdit={() => form.clearError('password')}
        />
        <FormField
          name="confirmPassword"
          label={text.confirmPassword}
          type="password"
          autoComplete="new-password"
          error={form.errors.confirmPassword}
          onEdit={() => form.clearError('confirmPassword')}
        />
        <SubmitButton
          label={text.submit}
          sendingLabel={messages.forms.sending}
          sending={form.sending}
        />
      </form>
      <hr />
      <p className="mb-0">
        {text.haveAccount} <Link to={paths.login}>{text.backToLogin}</Link>
      </p>
    </PublicCard>
  )
}
