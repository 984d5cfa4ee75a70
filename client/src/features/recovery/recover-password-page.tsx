import { CSpinner } from '@coreui/react'
import { useEffect, useState } from 'react'
import { Link, useSearchParams } from 'react-router-dom'
import { paths } from '../../routing/paths'
import { ApiError, errorMessage } from '../../session/api-client'
import { checkPasswordResetLink, requestPasswordRecovery, resetPassword } from './recovery-api'
import {
  validateRecover,
  validateReset,
  type RecoverField,
  type ResetField,
} from '../../forms/auth-validation'
import { useDocumentTitle } from '../../routing/use-document-title'
import { useFormSubmit } from '../../forms/use-form-submit'
import { recoverMessages } from './recovery-messages'
import { EmailField, NewPasswordFields } from '../../forms/account-fields'
import { PublicCard } from '../../ui/public-card'
import { Notice } from '../../ui/notice'
import { SubmitButton } from '../../forms/submit-button'

const RECOVER_FIELDS: readonly RecoverField[] = ['email']
const RESET_FIELDS: readonly ResetField[] = ['password', 'confirmPassword']
/** The server's refusal of the new password (a common one) is said under it. */
const RESET_FIELD_OF_KIND = { password: 'password' } as const

/** Step 1: ask for a link by e-mail. The answer is the same whether or not the account exists. */
function RecoverForm() {
  const text = recoverMessages.recover
  useDocumentTitle(text.title)
  const [sentTo, setSentTo] = useState<string | null>(null)
  const form = useFormSubmit({
    fields: RECOVER_FIELDS,
    validate: validateRecover,
    submit: async ({ email }) => {
      await requestPasswordRecovery(email)
      setSentTo(email.trim())
    },
  })

  if (sentTo !== null) {
    return (
      <PublicCard title={text.sentTitle}>
        <Notice color="success" text={text.sent(sentTo)} />
        <div className="d-flex flex-wrap gap-3">
          <button type="button" className="btn btn-link p-0" onClick={() => setSentTo(null)}>
            {text.wrongAddress}
          </button>
          <Link to={paths.login}>{text.backToLogin}</Link>
        </div>
      </PublicCard>
    )
  }
  return (
    <PublicCard title={text.title} subtitle={text.subtitle}>
      <form noValidate onSubmit={form.onSubmit} aria-busy={form.sending}>
        <Notice text={form.serverError} />
        <EmailField {...form.field('email')} label={text.email} />
        <div className="d-flex flex-wrap align-items-center justify-content-between gap-2">
          <SubmitButton label={text.submit} sending={form.sending} />
          <Link to={paths.login}>{text.backToLogin}</Link>
        </div>
      </form>
    </PublicCard>
  )
}

type LinkState = 'checking' | 'usable' | 'unusable'

/**
 * Whether the mailed link still works, asked when the page opens, so a used or fake link is said
 * before anyone types a new password twice. A failure that says nothing about the link (no
 * network) lets the form show: sending it will tell.
 */
interface LinkCheck {
  state: LinkState
  error: string | null
  /** The account the link is for, when the server says it. */
  email: string | null
}

function useResetLink(token: string): LinkCheck {
  const [result, setResult] = useState<LinkCheck>({ state: 'checking', error: null, email: null })
  useEffect(() => {
    const controller = new AbortController()
    checkPasswordResetLink(token, controller.signal).then(
      (answer) =>
        setResult({
          state: 'usable',
          error: null,
          email: typeof answer?.email === 'string' ? answer.email : null,
        }),
      (error: unknown) => {
        if (controller.signal.aborted) return
        if (error instanceof ApiError && error.code === 'invalid_or_expired_token')
          setResult({ state: 'unusable', error: null, email: null })
        else setResult({ state: 'usable', error: errorMessage(error), email: null })
      },
    )
    return () => controller.abort()
  }, [token])
  return result
}

/** Step 2, from the mailed link (`/recuperar-senha?token=…`): choose the new password. */
function ResetForm({ token, invited }: { token: string; invited: boolean }) {
  // An invitation (`&convite=1`) is the same step, in the words of a first password.
  const text = invited
    ? { ...recoverMessages.reset, ...recoverMessages.invitation }
    : recoverMessages.reset
  useDocumentTitle(text.title)
  const link = useResetLink(token)
  const [done, setDone] = useState(false)
  const form = useFormSubmit({
    fields: RESET_FIELDS,
    validate: validateReset,
    fieldOfKind: RESET_FIELD_OF_KIND,
    submit: async ({ password }) => {
      await resetPassword(token, password)
      setDone(true)
    },
  })

  if (done) {
    return (
      <PublicCard title={text.doneTitle}>
        <Notice color="success" text={text.done} />
        <Link to={paths.login} className="btn btn-primary">
          {text.goToLogin}
        </Link>
      </PublicCard>
    )
  }
  if (link.state === 'checking') {
    return (
      <PublicCard title={text.title}>
        <div className="d-flex align-items-center gap-2" role="status">
          <CSpinner size="sm" aria-hidden="true" />
          {text.checking}
        </div>
      </PublicCard>
    )
  }
  if (link.state === 'unusable') {
    return (
      <PublicCard title={text.invalidTitle}>
        <Notice color="warning" text={text.invalid} />
        <div className="d-flex flex-wrap align-items-center justify-content-between gap-2">
          <Link to={paths.recoverPassword} className="btn btn-primary">
            {text.requestNewLink}
          </Link>
          <Link to={paths.login}>{recoverMessages.recover.backToLogin}</Link>
        </div>
      </PublicCard>
    )
  }
  return (
    <PublicCard title={text.title} subtitle={text.subtitle}>
      <form noValidate onSubmit={form.onSubmit} aria-busy={form.sending}>
        <Notice text={form.serverError ?? link.error} />
        {link.email !== null && (
          <>
            <p style={{ overflowWrap: 'anywhere' }}>
              {text.account} <strong>{link.email}</strong>
            </p>
            {/* The account for password managers, which save the new password under it. */}
            <input
              type="email"
              name="username"
              autoComplete="username"
              value={link.email}
              readOnly
              hidden
            />
          </>
        )}
        <NewPasswordFields
          password={form.field('password')}
          confirmation={form.field('confirmPassword')}
          passwordLabel={text.password}
          confirmationLabel={text.confirmPassword}
        />
        <div className="d-flex flex-wrap align-items-center justify-content-between gap-2">
          <SubmitButton label={text.submit} sending={form.sending} />
          <Link to={paths.recoverPassword}>{text.requestNewLink}</Link>
        </div>
      </form>
    </PublicCard>
  )
}

export default function RecoverPasswordPage() {
  const [params] = useSearchParams()
  const token = params.get('token')
  // key: a different link in the same tab starts over.
  return token ? (
    <ResetForm key={token} token={token} invited={params.get('convite') === '1'} />
  ) : (
    <RecoverForm />
  )
}
