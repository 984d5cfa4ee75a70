import { lazy, Suspense, useEffect, useState, useSyncExternalStore } from 'react'
import { Link, useLocation, useNavigate } from 'react-router-dom'
import { paths } from '../../routing/paths'
import { signIn } from './sign-in-api'
import { validateLogin, type LoginField } from '../../forms/auth-validation'
import { useFormSubmit } from '../../forms/use-form-submit'
import { readSessionEnd } from '../../session/session-end'
import { saveToken } from '../../session/token'
import { EmailField } from '../../forms/account-fields'
import { PasswordField } from '../../forms/password-field'
import { PublicCard } from '../../ui/public-card'
import { Notice } from '../../ui/notice'
import { SubmitButton } from '../../forms/submit-button'
import { messages } from '../../words/messages'
import { signInMessages } from './sign-in-messages'
import type { MfaRequired } from '../../../../common/api/auth'
import { SSO_CODE_PARAM, SSO_ERROR_PARAM } from '../../../../common/provider-sign-in-errors'
import {
  PASSWORD_FORM_OPENED,
  PASSWORD_PART_CLASS,
  PASSWORD_SIGN_IN_ATTRIBUTE,
  PASSWORD_TOGGLE_CLASS,
  REGISTRATION_CLASS,
} from '../../../../common/sign-in-providers'
import { ProviderButtons } from './provider-buttons'

/** The second step and the passkey's code load only when used (the cold page has a budget). */
const MfaStep = lazy(() => import('./mfa-step'))
const passkeySignIn = () => import('./passkey-sign-in')
/** A return from a sign-in provider: loaded only when the address holds one. */
const providerReturn = () => import('./provider-return')
/**
 * Why the last session ended, with its texts: loaded only when there is such a record, and only
 * after the first render, which hydrates the prerendered page (built without any record).
 */
const SessionEndNotice = lazy(() => import('./session-end-notice'))

const noSubscription = () => () => {}
const hasSessionEnd = () => readSessionEnd() !== null

const FIELDS: readonly LoginField[] = ['email', 'password']

/** PASSWORD_SIGN_IN=off: the served page hides the form until this (the first admin's way in). */
const showPasswordForm = () => {
  document.getElementById('root')?.setAttribute(PASSWORD_SIGN_IN_ATTRIBUTE, PASSWORD_FORM_OPENED)
  document.querySelector<HTMLInputElement>('#root form input[name="email"]')?.focus()
}
const text = messages.login

export default function LoginPage() {
  const [challenge, setChallenge] = useState<MfaRequired['mfa'] | null>(null)
  const [passkeyError, setPasskeyError] = useState<string | null>(null)
  const [passkeyBusy, setPasskeyBusy] = useState(false)
  /** Back from a provider that named this account without vouching for it: link by password. */
  const [linking, setLinking] = useState(false)
  const form = useFormSubmit({
    fields: FIELDS,
    validate: validateLogin,
    submit: async ({ email, password }) => {
      setPasskeyError(null)
      const answer = linking
        ? await (await providerReturn()).linkWithPassword(email, password)
        : await signIn(email, password)
      // With a token stored, the login route's guard moves on to the remembered path.
      if ('token' in answer) saveToken(answer.token)
      else setChallenge(answer.mfa)
    },
  })
  const [providerProblem, setProviderProblem] = useState<{ text: string; pending: boolean }>()
  const location = useLocation()
  const navigate = useNavigate()
  // After hydration (the prerendered page has no such query): a return from a provider.
  useEffect(() => {
    const query = new URLSearchParams(location.search)
    const code = query.get(SSO_CODE_PARAM)
    const error = query.get(SSO_ERROR_PARAM)
    if (code === null && error === null) return
    // The code is single use: out of the address before anything else (a reload, the history).
    query.delete(SSO_CODE_PARAM)
    query.delete(SSO_ERROR_PARAM)
    const rest = query.toString()
    void navigate({ search: rest === '' ? '' : `?${rest}` }, { replace: true })
    void providerReturn().then(async (module) => {
      const outcome = await module.providerReturn(code, error)
      if (outcome.kind === 'problem') {
        setProviderProblem({ text: outcome.message, pending: outcome.pending })
        setLinking(outcome.linkByPassword)
      } else if ('token' in outcome.answer) saveToken(outcome.answer.token)
      else setChallenge(outcome.answer.mfa)
    })
  }, [location.search, navigate])
  // False while hydrating the prerendered page (built without a record), then what is stored.
  const sessionEnded = useSyncExternalStore(noSubscription, hasSessionEnd, () => false)

  const passkeyAlone = async () => {
    setPasskeyBusy(true)
    setPasskeyError(null)
    const { passkeyAloneProblem } = await passkeySignIn()
    setPasskeyError(await passkeyAloneProblem())
    setPasskeyBusy(false)
  }

  if (challenge !== null) {
    return (
      <PublicCard title={text.title} subtitle={text.subtitle}>
        <Suspense fallback={null}>
          <MfaStep
            challenge={challenge}
            onBack={() => setChallenge(null)}
            {...(linking && {
              submitCode: async (id: string, code: string) =>
                (await providerReturn()).linkWithCode(id, code),
            })}
          />
        </Suspense>
      </PublicCard>
    )
  }

  return (
    <PublicCard title={text.title} subtitle={text.subtitle}>
      {/*
       * Above the form, not in it: with PASSWORD_SIGN_IN=off the form is hidden, not what a
       * provider's return says. Waiting for approval is news, and linking is the next step, not
       * a mistake the person made: both said as information.
       */}
      <Notice
        text={form.serverError ?? passkeyError ?? providerProblem?.text ?? null}
        color={
          form.serverErrorCode === 'pending_approval' ||
          (!form.serverError && !passkeyError && (providerProblem?.pending || linking))
            ? 'info'
            : 'danger'
        }
      />
      <button
        type="button"
        className={`btn btn-link px-0 mb-3 ${PASSWORD_TOGGLE_CLASS}`}
        hidden
        onClick={showPasswordForm}
      >
        {signInMessages.passwordToggle}
      </button>
      <form
        noValidate
        onSubmit={form.onSubmit}
        aria-busy={form.sending}
        className={PASSWORD_PART_CLASS}
      >
        {sessionEnded && !form.serverError && !passkeyError && !providerProblem && (
          <Suspense fallback={null}>
            <SessionEndNotice />
          </Suspense>
        )}
        <EmailField {...form.field('email')} label={text.email} autoComplete="username" />
        <PasswordField
          {...form.field('password')}
          label={text.password}
          autoComplete="current-password"
        />
        <div className="d-flex flex-wrap align-items-center justify-content-between gap-2">
          <SubmitButton
            label={linking ? signInMessages.linkSubmit : text.submit}
            sendingLabel={linking ? signInMessages.linkSending : text.submitting}
            sending={form.sending}
          />
          <Link to={paths.recoverPassword}>{text.forgotPassword}</Link>
        </div>
        {linking && (
          <button
            type="button"
            className="btn btn-link px-0 mt-2"
            onClick={() => {
              setLinking(false)
              setProviderProblem(undefined)
            }}
          >
            {signInMessages.linkCancel}
          </button>
        )}
      </form>
      <button
        type="button"
        className="btn btn-outline-secondary w-100 mt-3"
        disabled={passkeyBusy}
        onClick={() => void passkeyAlone()}
      >
        {signInMessages.passkey}
      </button>
      <ProviderButtons />
      <hr className={REGISTRATION_CLASS} />
      <p className={`mb-0 ${REGISTRATION_CLASS}`}>
        {text.noAccount} <Link to={paths.register}>{text.register}</Link>
      </p>
    </PublicCard>
  )
}
