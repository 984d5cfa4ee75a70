import { CButton, CFormInput, CFormLabel, CFormText } from '@coreui/react'
import { useId, useRef, useState, type FormEvent } from 'react'
import { errorMessage } from '../../session/api-client'
import { Notice } from '../../ui/notice'
import { signInWithCode, type Challenge } from './mfa-code-api'
import type { SignedInWithCode } from '../../../../common/api/auth'
import { secondFactorMessages as text } from './mfa-step-messages'
import { saveToken } from '../../session/token'
import { SubmitButton } from '../../forms/submit-button'

/**
 * The login's second step, after a right password on an account with a second factor: a 6-digit
 * code from the app (numeric keyboard on phones, the browser may fill it from an SMS-less
 * one-time-code source), a recovery code, or a passkey of the account. Loaded only when needed.
 */
export default function MfaStep({
  challenge,
  onBack,
  submitCode = signInWithCode,
}: {
  challenge: Challenge
  onBack: () => void
  /** Where the code goes: the sign-in's second step, or a provider's link's (provider-return.ts). */
  submitCode?: (challenge: string, code: string) => Promise<SignedInWithCode>
}) {
  const id = useId()
  const input = useRef<HTMLInputElement>(null)
  const offersApp = challenge.methods.includes('totp')
  const [recovery, setRecovery] = useState(!offersApp)
  const [error, setError] = useState<string | null>(null)
  const [fieldError, setFieldError] = useState<string | null>(null)
  const [sending, setSending] = useState(false)

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (sending) return
    const raw = new FormData(event.currentTarget).get('code')
    const code = typeof raw === 'string' ? raw.trim() : ''
    const problem =
      code === ''
        ? text.codeRequired
        : !recovery && !/^[0-9]{6}$/.test(code.replace(/\s+/g, ''))
          ? text.codeFormat
          : null
    setFieldError(problem)
    setError(null)
    if (problem) return input.current?.focus()
    setSending(true)
    try {
      const { token, recoveryCodesLeft } = await submitCode(
        challenge.challenge,
        recovery ? code : code.replace(/\s+/g, ''),
      )
      // After a recovery code, the layout says how many are left.
      saveToken(token, typeof recoveryCodesLeft === 'number' ? { recoveryCodesLeft } : {})
    } catch (caught) {
      setError(errorMessage(caught))
      input.current?.select()
    } finally {
      setSending(false)
    }
  }

  // The other kind of code is a new, empty field: the last one's complaint is not about it.
  const switchKind = () => {
    setRecovery((value) => !value)
    setFieldError(null)
    setError(null)
  }

  const passkey = async () => {
    setError(null)
    try {
      // The WebAuthn code (with @simplewebauthn/browser) comes only now, with the click.
      const { signInWithPasskeyNow } = await import('./passkey-sign-in')
      await signInWithPasskeyNow(challenge.challenge)
    } catch (caught) {
      setError(errorMessage(caught, text.passkeyFailed))
    }
  }

  return (
    <form noValidate onSubmit={(event) => void submit(event)} aria-busy={sending}>
      <h2 className="h5">{text.title}</h2>
      <p id={`${id}-intro`}>{recovery ? text.introRecovery : text.intro}</p>
      <Notice text={error} />
      <div className="mb-3">
        <CFormLabel htmlFor={`${id}-code`}>{recovery ? text.recoveryCode : text.code}</CFormLabel>
        <CFormInput
          ref={input}
          key={recovery ? 'recovery' : 'app'}
          id={`${id}-code`}
          name="code"
          autoFocus
          autoComplete="one-time-code"
          inputMode={recovery ? 'text' : 'numeric'}
          autoCapitalize="off"
          spellCheck={false}
          maxLength={recovery ? 64 : 7}
          className="font-monospace"
          invalid={fieldError !== null}
          aria-invalid={fieldError !== null}
          aria-describedby={fieldError ? `${id}-error` : `${id}-intro`}
          onChange={() => setFieldError(null)}
        />
        {fieldError && (
          <CFormText id={`${id}-error`} className="invalid-feedback d-block" role="alert">
            {fieldError}
          </CFormText>
        )}
      </div>
      <SubmitButton label={text.submit} sendingLabel={text.submitting} sending={sending} />
      <div className="d-flex flex-column align-items-start gap-1 mt-3">
        {offersApp && challenge.methods.includes('recovery_code') && (
          <CButton color="link" className="p-0" onClick={switchKind}>
            {recovery ? text.useApp : text.useRecovery}
          </CButton>
        )}
        {challenge.methods.includes('passkey') && (
          <CButton color="link" className="p-0" onClick={() => void passkey()}>
            {text.usePasskey}
          </CButton>
        )}
        <CButton color="link" className="p-0" onClick={onBack}>
          {text.back}
        </CButton>
      </div>
    </form>
  )
}
