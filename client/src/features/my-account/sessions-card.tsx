import { CButton, CSpinner } from '@coreui/react'
import { useCallback, useEffect, useState } from 'react'
import { securityMessages } from '../../second-factor/second-factor-messages'
import { accountMessages } from './my-account-messages'
import { errorMessage } from '../../session/api-client'
import { useConfirmedAction } from '../../ui/use-confirmed-action'
import { ConfirmDialog } from '../../ui/confirm-dialog'
import { formatDateTime } from '../../ui/format-date'
import { endOtherSessions, endSession, listSessions, type SessionItem } from './my-account-api'
import { Notice } from '../../ui/notice'
import { AccountCard } from '../../ui/account-card'

const text = accountMessages.sessions

type Load =
  | { state: 'loading' }
  | { state: 'failed'; message: string }
  | { state: 'ready'; sessions: SessionItem[] }

type Question = { session: SessionItem; browser: string } | { others: number }

/** Minha conta › Sessões abertas: where this account is signed in; end one, or all the others. */
export function SessionsCard() {
  const [load, setLoad] = useState<Load>({ state: 'loading' })
  // Not useLoad (api/use-load.ts): Minha conta's chunk would then share that hook's with the
  // admins' screens and the cold #/dashboard would fetch one more file (its budget).
  const reload = useCallback((signal?: AbortSignal) => {
    listSessions(signal).then(
      ({ sessions }) => setLoad({ state: 'ready', sessions }),
      (error: unknown) => {
        if (!signal?.aborted) setLoad({ state: 'failed', message: errorMessage(error) })
      },
    )
  }, [])

  useEffect(() => {
    const controller = new AbortController()
    reload(controller.signal)
    return () => controller.abort()
  }, [reload])
  const [notice, setNotice] = useState<{ text: string; error: boolean } | null>(null)
  const { asking, busy, error, ask, confirm, cancel } = useConfirmedAction<Question>()

  const end = async (question: Question) => {
    const one = 'session' in question
    setNotice(null)
    await (one ? endSession(question.session.id) : endOtherSessions())
    setNotice({ text: one ? text.ended : text.othersEnded, error: false })
    reload()
  }

  const others = load.state === 'ready' ? load.sessions.filter((session) => !session.current) : []

  return (
    <AccountCard title={text.title} intro={text.intro}>
      {notice && <Notice color={notice.error ? 'danger' : 'success'} text={notice.text} />}
      {load.state === 'loading' && (
        <div className="d-flex align-items-center gap-2" role="status">
          <CSpinner size="sm" aria-hidden="true" />
          {securityMessages.loading}
        </div>
      )}
      {load.state === 'failed' && (
        <>
          <Notice text={load.message} />
          <CButton color="secondary" variant="outline" onClick={() => reload()}>
            {securityMessages.retry}
          </CButton>
        </>
      )}
      {load.state === 'ready' && (
        <ul className="list-unstyled mb-3" aria-label={text.title}>
          {load.sessions.map((session) => {
            const browser = session.userAgent ?? text.unknownBrowser
            const lastSeen = formatDateTime(session.lastSeenAt)
            return (
              <li
                key={session.id}
                className="d-flex flex-wrap align-items-start justify-content-between gap-2 border-bottom py-2"
                aria-current={session.current ? 'true' : undefined}
              >
                <div>
                  <div className="fw-semibold">
                    {browser}{' '}
                    {session.current && (
                      // CoreUI's classes without CBadge: the layout's chunk keeps it to itself.
                      <span className="badge text-bg-success ms-1">{text.current}</span>
                    )}
                  </div>
                  {/* One fact a line: run together they wrapped mid-date on a phone. */}
                  <div className="small text-body-secondary">
                    <div>
                      {text.address}: {session.ip ?? text.unknownAddress}
                    </div>
                    <div>
                      {text.lastSeen}: {lastSeen}
                    </div>
                    <div>
                      {text.since}: {formatDateTime(session.createdAt)}
                    </div>
                  </div>
                </div>
                {!session.current && (
                  <CButton
                    color="danger"
                    variant="outline"
                    size="sm"
                    aria-label={text.endLabel(browser, lastSeen)}
                    onClick={() => ask({ session, browser })}
                  >
                    {text.end}
                  </CButton>
                )}
              </li>
            )
          })}
        </ul>
      )}
      {load.state === 'ready' &&
        (others.length === 0 ? (
          <p className="mb-0 text-body-secondary">{text.onlyThis}</p>
        ) : (
          <CButton color="danger" variant="outline" onClick={() => ask({ others: others.length })}>
            {text.endOthers}
          </CButton>
        ))}
      {asking && (
        <ConfirmDialog
          title={
            'session' in asking ? text.endTitle(asking.browser) : text.endOthersTitle(asking.others)
          }
          body={'session' in asking ? text.endBody : text.endOthersBody}
          confirmLabel={'session' in asking ? text.end : text.endOthersConfirm(asking.others)}
          cancelLabel={securityMessages.cancel}
          danger
          busy={busy}
          error={error}
          onConfirm={() => void confirm(end)}
          onCancel={cancel}
        />
      )}
    </AccountCard>
  )
}
