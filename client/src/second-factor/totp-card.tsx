import { CButton, CFormInput, CFormLabel, CSpinner } from '@coreui/react'
import {
  Fragment,
  lazy,
  Suspense,
  useCallback,
  useEffect,
  useId,
  useRef,
  useState,
  type FormEvent,
} from 'react'
import { securityMessages } from './second-factor-messages'
import { errorMessage } from '../session/api-client'
import {
  confirmTotp,
  fetchMfaStatus,
  regenerateRecoveryCodes,
  startTotp,
  turnOffTotp,
  type MfaStatus,
} from './second-factor-api'
import { Notice } from '../ui/notice'
import { useCopy } from '../ui/use-copy'
import { AccountCard } from '../ui/account-card'
import { keyGroups } from './key-groups'
import { RecoveryCodesView } from './recovery-codes'

const TotpQr = lazy(() => import('./totp-qr'))
const text = securityMessages.totp

type Mode =
  | { step: 'status' }
  | { step: 'setup'; secret: string; otpauthUrl: string }
  /** `turnedOn`: the codes of a factor just turned on (not regenerated ones). */
  | { step: 'codes'; codes: string[]; turnedOn?: boolean }
  | { step: 'password'; purpose: 'off' | 'regenerate' }

const valueOf = (event: FormEvent<HTMLFormElement>, name: string) => {
  const value = new FormData(event.currentTarget).get(name)
  return typeof value === 'string' ? value.trim() : ''
}
/** "123 456" as typed from the app's display: the digits only. */
const digitsOf = (code: string) => code.replace(/\s+/g, '')

/** A step's buttons: the one that sends its form, then "Cancelar", back to the status. */
function StepButtons({
  label,
  danger = false,
  busy,
  onCancel,
}: {
  label: string
  danger?: boolean
  busy: boolean
  onCancel: () => void
}) {
  return (
    <div className="d-flex flex-wrap gap-2">
      <CButton type="submit" color={danger ? 'danger' : 'primary'} disabled={busy}>
        {busy && <CSpinner as="span" size="sm" aria-hidden="true" className="me-2" />}
        {label}
      </CButton>
      <CButton color="secondary" variant="outline" disabled={busy} onClick={onCancel}>
        {securityMessages.cancel}
      </CButton>
    </div>
  )
}

/** The key in groups of four (key-groups.ts), and a button that copies it whole. */
function SecretKey({ secret }: { secret: string }) {
  const { outcome, copy } = useCopy()
  return (
    <div className="d-flex flex-wrap align-items-center gap-2 mb-3">
      <code className="fs-6" data-testid="totp-secret">
        {keyGroups(secret).map((group, index) => (
          <Fragment key={index}>
            {index > 0 && ' '}
            <span className="text-nowrap">{group}</span>
          </Fragment>
        ))}
      </code>
      <CButton size="sm" color="secondary" variant="outline" onClick={() => copy(secret)}>
        {text.copyKey}
      </CButton>
      <span role="status" className="small">
        {outcome === 'copied' ? text.keyCopied : outcome === 'failed' ? text.copyFailed : ''}
      </span>
    </div>
  )
}

/**
 * Minha conta › Verificação em duas etapas: the authenticator app and its recovery codes.
 * `onTurnedOn`: told when the app is on and its recovery codes have been put away (the
 * second-factor setup screen then moves on). `onStatus`: told each status it reads (Minha conta's
 * e-mail and deletion cards take a code of the app once it is on).
 */
export function TotpCard({
  email,
  onTurnedOn,
  onStatus,
}: {
  email: string
  onTurnedOn?: () => void
  onStatus?: (status: MfaStatus) => void
}) {
  const id = useId()
  const [status, setStatus] = useState<MfaStatus | null>(null)
  const [mode, setMode] = useState<Mode>({ step: 'status' })
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [done, setDone] = useState<string | null>(null)
  // The latest listener, without making reload (and the first load) depend on it.
  const statusListener = useRef(onStatus)
  useEffect(() => {
    statusListener.current = onStatus
  })

  const reload = useCallback((signal?: AbortSignal) => {
    fetchMfaStatus(signal).then(
      (read) => {
        setStatus(read)
        statusListener.current?.(read)
      },
      (caught: unknown) => {
        if (!signal?.aborted) setError(errorMessage(caught))
      },
    )
  }, [])
  useEffect(() => {
    const controller = new AbortController()
    reload(controller.signal)
    return () => controller.abort()
  }, [reload])

  const run = async (work: () => Promise<void>) => {
    setBusy(true)
    setError(null)
    setDone(null)
    try {
      await work()
    } catch (caught) {
      setError(errorMessage(caught))
    } finally {
      setBusy(false)
    }
  }

  const begin = () =>
    run(async () => {
      const setup = await startTotp()
      setMode({ step: 'setup', ...setup })
    })

  const confirm = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const code = digitsOf(valueOf(event, 'code'))
    if (!/^[0-9]{6}$/.test(code)) return setError(text.codeInvalid)
    void run(async () => {
      const { recoveryCodes } = await confirmTotp(code)
      setMode({ step: 'codes', codes: recoveryCodes, turnedOn: true })
      setDone(text.turnedOn)
      reload()
    })
  }

  const withPassword = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (mode.step !== 'password') return
    const password = new FormData(event.currentTarget).get('password')
    if (typeof password !== 'string' || password === '') return setError(text.password)
    void run(async () => {
      if (mode.purpose === 'off') {
        await turnOffTotp(password)
        setMode({ step: 'status' })
        setDone(text.turnedOff)
      } else {
        const { recoveryCodes } = await regenerateRecoveryCodes(password)
        setMode({ step: 'codes', codes: recoveryCodes })
      }
      reload()
    })
  }

  const backToStatus = () => setMode({ step: 'status' })

  return (
    <AccountCard title={text.title} intro={text.intro}>
      {done && <Notice color="success" text={done} />}
      <Notice text={error} />

      {mode.step === 'status' && status && (
        <>
          <p>
            <strong>{status.totp ? text.on : text.off}</strong>
            {status.totp && <> {text.codesLeft(status.recoveryCodesLeft)}</>}
          </p>
          <div className="d-flex flex-wrap gap-2">
            {status.totp ? (
              <>
                <CButton
                  color="secondary"
                  variant="outline"
                  onClick={() => setMode({ step: 'password', purpose: 'regenerate' })}
                >
                  {text.regenerate}
                </CButton>
                <CButton
                  color="danger"
                  variant="outline"
                  onClick={() => setMode({ step: 'password', purpose: 'off' })}
                >
                  {text.turnOff}
                </CButton>
              </>
            ) : (
              <CButton color="primary" disabled={busy} onClick={() => void begin()}>
                {busy && <CSpinner as="span" size="sm" aria-hidden="true" className="me-2" />}
                {text.turnOn}
              </CButton>
            )}
          </div>
        </>
      )}

      {mode.step === 'setup' && (
        <form noValidate onSubmit={confirm} aria-busy={busy}>
          <p>{text.scan}</p>
          <Suspense fallback={<CSpinner size="sm" aria-hidden="true" />}>
            <TotpQr url={mode.otpauthUrl} label={text.qrLabel} />
          </Suspense>
          {/* A QR code cannot be read by the phone that shows it: the app opens from a link. */}
          <p className="mt-3 mb-1">{text.openInAppIntro}</p>
          <p>
            <a href={mode.otpauthUrl} className="btn btn-outline-primary">
              {text.openInApp}
            </a>
          </p>
          <p className="mb-1">{text.secret}</p>
          <SecretKey secret={mode.secret} />
          <div className="mb-3">
            <CFormLabel htmlFor={`${id}-code`}>{text.code}</CFormLabel>
            <CFormInput
              id={`${id}-code`}
              // The next thing to do once the app has the key; the QR stays above it.
              autoFocus
              name="code"
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern="[0-9 ]*"
              maxLength={7}
              className="font-monospace"
              style={{ maxWidth: '10rem' }}
            />
          </div>
          <StepButtons label={text.confirm} busy={busy} onCancel={backToStatus} />
        </form>
      )}

      {mode.step === 'codes' && (
        <RecoveryCodesView
          codes={mode.codes}
          email={email}
          onDone={() => {
            setMode({ step: 'status' })
            setDone(null)
            if (mode.turnedOn) onTurnedOn?.()
          }}
        />
      )}

      {mode.step === 'password' && (
        <form noValidate onSubmit={withPassword} aria-busy={busy}>
          <h3 className="h6">{mode.purpose === 'off' ? text.turnOffTitle : text.regenerate}</h3>
          {mode.purpose === 'regenerate' && <p>{text.regenerateIntro}</p>}
          <div className="mb-3">
            <CFormLabel htmlFor={`${id}-password`}>{text.password}</CFormLabel>
            <CFormInput
              id={`${id}-password`}
              name="password"
              type="password"
              autoComplete="current-password"
              autoFocus
            />
          </div>
          <StepButtons
            label={mode.purpose === 'off' ? text.turnOff : text.regenerate}
            danger={mode.purpose === 'off'}
            busy={busy}
            onCancel={backToStatus}
          />
        </form>
      )}
    </AccountCard>
  )
}
