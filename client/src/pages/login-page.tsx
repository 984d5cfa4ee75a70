import { Link, useLocation } from 'react-router-dom'
import { paths, REDIRECT_PARAM } from '../app/paths'
import { signIn } from '../lib/auth-api'
import { validateLogin, type LoginField } from '../forms/auth-validation'
import { useDocumentTitle } from '../lib/use-document-title'
import { useFormSubmit } from '../forms/use-form-submit'
import { messages } from '../messages'
import { saveToken } from '../session/token'
import { EmailField } from '../forms/account-fields'
import { PasswordField } from '../forms/password-field'
import { PublicCard } from './public-card'
import { SessionEndNotice } from './session-end-notice'
import { Notice } from '../lib/notice'
import { SubmitButton } from '../forms/submit-button'

const FIELDS: readonly LoginField[] = ['email', 'password']
const text = messages.login

async function submitLogin({ email, password }: Record<LoginField, string>) {
  const { token } = await signIn(email, password)
  // With a token stored, the login route's guard moves on to the remembered path.
  saveToken(token)
}

export default function LoginPage() {
  useDocumentTitle(text.title)
  const form = useFormSubmit({ fields: FIELDS, validate: validateLogin, submit: submitLogin })
  const returning = new URLSearchParams(useLocation().search).has(REDIRECT_PARAM)

  return (
    <PublicCard title={text.title} subtitle={text.subtitle}>
      <form noValidate onSubmit={form.onSubmit} aria-busy={form.sending}>
        {/* Waiting for approval is news, not a mistake the user made: said as information. */}
        <Notice
          text={form.serverError}
          color={form.serverErrorCode === 'pending_approval' ? 'info' : 'danger'}
        />
        {!form.serverError && <SessionEndNotice returning={returning} />}
        <EmailField {...form.field('email')} label={text.email} autoComplete="username" />
        <PasswordField
          {...form.field('password')}
          label={text.password}
          autoComplete="current-password"
        />
        <div className="d-flex flex-wrap align-items-center justify-content-between gap-2">
          <SubmitButton label={text.submit} sendingLabel={text.submitting} sending={form.sending} />
          <Link to={paths.recoverPassword}>{text.forgotPassword}</Link>
        </div>
      </form>
      <hr />
      <p className="mb-0">
        {text.noAccount} <Link to={paths.register}>{text.register}</Link>
      </p>
    </PublicCard>
  )
}
