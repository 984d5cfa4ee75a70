import { CBadge, CButton, CSpinner, CTable } from '@coreui/react'
import { useEffect, useState } from 'react'
import { ApiError } from '../lib/api-client'
import { listStaff, setStaffStatus, type AccountStatus, type User } from '../lib/auth-api'
import { formatDate } from '../lib/format-date'
import { Notice } from '../lib/notice'
import { useDocumentTitle } from '../lib/use-document-title'
import { useCurrentUser } from '../session/current-user'
import { accountMessages } from '../messages-accounts'

const text = accountMessages.staff
const profile = accountMessages.profile
const BADGE: Record<AccountStatus, string> = {
  pending: 'warning',
  active: 'success',
  disabled: 'secondary',
}
/** Subtle badges: their emphasis text on a subtle background keeps AA contrast in both modes. */
const badgeClass = (status: AccountStatus) =>
  `bg-${BADGE[status]}-subtle text-${BADGE[status]}-emphasis border border-${BADGE[status]}-subtle`

type Load =
  { state: 'loading' } | { state: 'failed'; message: string } | { state: 'ready'; accounts: User[] }

const messageOf = (error: unknown) => (error instanceof ApiError ? error.message : String(error))

/** Equipe (admins only): approve registrations, disable and re-enable accounts. */
export default function StaffScreen() {
  useDocumentTitle(text.title)
  const { user: me } = useCurrentUser()
  const [load, setLoad] = useState<Load>({ state: 'loading' })
  const [notice, setNotice] = useState<{ color: 'success' | 'danger'; text: string } | null>(null)
  const [busy, setBusy] = useState<string | null>(null)
  const isAdmin = me?.role === 'admin'

  useEffect(() => {
    if (!isAdmin) return
    const controller = new AbortController()
    listStaff(controller.signal).then(
      ({ accounts }) => setLoad({ state: 'ready', accounts }),
      (error: unknown) => {
        if (!controller.signal.aborted) setLoad({ state: 'failed', message: messageOf(error) })
      },
    )
    return () => controller.abort()
  }, [isAdmin])

  const change = async (account: User, status: 'active' | 'disabled') => {
    setBusy(account.id)
    setNotice(null)
    try {
      const { user } = await setStaffStatus(account.id, status)
      setLoad((current) =>
        current.state === 'ready'
          ? {
              state: 'ready',
              accounts: current.accounts.map((row) => (row.id === user.id ? user : row)),
            }
          : current,
      )
      const said =
        status === 'disabled'
          ? text.disabled(user.name)
          : account.status === 'pending'
            ? text.approved(user.name)
            : text.enabled(user.name)
      setNotice({ color: 'success', text: said })
    } catch (error) {
      setNotice({ color: 'danger', text: messageOf(error) })
    } finally {
      setBusy(null)
    }
  }

  if (me && !isAdmin) {
    return (
      <>
        <h1 className="h2 mb-3">{text.title}</h1>
        <Notice color="warning" text={text.restricted} />
      </>
    )
  }

  const pending =
    load.state === 'ready'
      ? load.accounts.filter((account) => account.status === 'pending').length
      : 0
  return (
    <>
      <h1 className="h2 mb-1">{text.title}</h1>
      <p className="text-body-secondary">{text.intro}</p>
      {notice && <Notice color={notice.color} text={notice.text} />}
      {load.state === 'loading' && (
        <div className="d-flex align-items-center gap-2" role="status">
          <CSpinner size="sm" aria-hidden="true" />
          {text.loading}
        </div>
      )}
      {load.state === 'failed' && <Notice text={load.message} />}
      {load.state === 'ready' && (
        <>
          {pending > 0 && <p className="fw-semibold">{text.pendingCount(pending)}</p>}
          {load.accounts.length === 0 ? (
            <p>{text.empty}</p>
          ) : (
            // Focusable and named: on a narrow screen the table scrolls sideways, by keyboard too.
            <div className="table-responsive" tabIndex={0} role="region" aria-label={text.title}>
              <CTable hover align="middle" className="mb-0">
                <caption className="visually-hidden">{text.title}</caption>
                <thead>
                  <tr>
                    <th scope="col">{text.columns.name}</th>
                    <th scope="col">{text.columns.email}</th>
                    <th scope="col">{text.columns.role}</th>
                    <th scope="col">{text.columns.status}</th>
                    <th scope="col">{text.columns.since}</th>
                    <th scope="col">{text.columns.actions}</th>
                  </tr>
                </thead>
                <tbody>
                  {load.accounts.map((account) => {
                    const itsMe = account.id === me?.id
                    const action =
                      account.status === 'active'
                        ? text.disable
                        : account.status === 'pending'
                          ? text.approve
                          : text.enable
                    return (
                      <tr key={account.id}>
                        <th scope="row" className="fw-normal">
                          {account.name}{' '}
                          {itsMe && <span className="text-body-secondary">{text.you}</span>}
                        </th>
                        <td>{account.email}</td>
                        <td>{profile.roles[account.role]}</td>
                        <td>
                          <CBadge className={badgeClass(account.status)}>
                            {profile.statuses[account.status]}
                          </CBadge>
                        </td>
                        <td>{formatDate(account.createdAt)}</td>
                        <td>
                          {!itsMe && (
                            <CButton
                              size="sm"
                              color={account.status === 'active' ? 'secondary' : 'primary'}
                              variant={account.status === 'active' ? 'outline' : undefined}
                              disabled={busy === account.id}
                              aria-label={`${action} ${account.name}`}
                              onClick={() =>
                                void change(
                                  account,
                                  account.status === 'active' ? 'disabled' : 'active',
                                )
                              }
                            >
                              {action}
                            </CButton>
                          )}
                        </td>
                      </tr>
                    )
                  })}
                </tbody>
              </CTable>
            </div>
          )}
        </>
      )}
    </>
  )
}
