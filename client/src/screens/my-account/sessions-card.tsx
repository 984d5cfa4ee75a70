import { CButton, CSpinner } from '@coreui/react'
import { useCallback, useEffect, useState } from 'react'
import { securityMessages } from '../../messages-account-security'
import { errorMessage } from '../../lib/api-client'
import { formatDateTime } from '../../lib/format-date'
import { endOtherSessions, endSession, listSessions, type SessionItem } from '../../lib/me-api'
import { Notice } from '../../lib/notice'
import { AccountCard } from './account-card'

const text = securityMessages.sessions

type Load =
  | { state: 'loading' }
  | { state: 'failed'; message: string }
  | { state: 'ready'; sessions: SessionItem[] }

/** Minha conta › Sessões abertas: where this account is signed in; end one, or all the others. */
export function SessionsCard() {
  const [load, setLoad] = useState<Load>({ state: 'loading' })
  const [busy, setBusy] = useState<string | null>(null)
  const [notice, setNotice] = useState<{ text: string; error: boolean } | null>(null)

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

  const act = async (what: string, call: () => Promise<void>, done: string) => {
    setBusy(what)
    setNotice(null)
    try {
      await call()
      setNotice({ text: done, error: false })
      reload()
    } catch (error) {
      setNotice({ text: errorMessage(error), error: true })
    } finally {
      setBusy(null)
    }
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
                    disabled={busy !== null}
                    aria-label={text.endLabel(browser, lastSeen)}
                    onClick={() => void act(session.id, () => endSession(session.id), text.ended)}
                  >
                    {busy === session.id && (
                      <CSpinner as="span" size="sm" aria-hidden="true" className="me-1" />
                    )}
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
          <CButton
            color="danger"
            variant="outline"
            disabled={busy !== null}
            onClick={() => void act('others', endOtherSessions, text.othersEnded)}
          >
            {busy === 'others' && (
              <CSpinner as="span" size="sm" aria-hidden="true" className="me-1" />
            )}
            {text.endOthers}
          </CButton>
        ))}
    </AccountCard>
  )
}
