import { CCard, CCardBody } from '@coreui/react'
import { useState } from 'react'
import { Link, useParams } from 'react-router-dom'
import { adminMessages } from '../../words/admin-messages'
import { staffMessages } from './staff-messages'
import { paths } from '../../routing/paths'
import { listAudit } from '../../audit-log/audit-log-api'
import { changeStaff, fetchStaffAccount } from './staff-api'
import { ApiError } from '../../session/api-client'
import { useLoad } from '../../api/use-load'
import { formatDate, formatDateTime } from '../../ui/format-date'
import { LoadingLine } from '../../ui/load-notices'
import { Notice } from '../../ui/notice'
import { useNameInBreadcrumb } from '../../layout/breadcrumb-detail'
import { nameMessages } from '../../forms/name-messages'
import { useCurrentUser } from '../../session/current-user'
import { AuditEventList } from '../../audit-log/audit-event-list'
import { NameEditor } from '../../forms/name-editor'
import { StaffActionButtons, useStaffActions } from './staff-actions'
import { StaffBadges } from './status-badge'
import type { StaffAccount } from '../../../../common/api/staff'
import type { StaffMember } from '../../api/staff-list-api'
import { useAccess } from '../../session/use-access'
import { actionsFor, mayActOn, mayChangeRoleAndName, saysOutranked } from './staff-action-rules'
import { AccountRoleTeam } from './account-role-team'
import { roleNameOf } from './staff-list-views'
import { ProviderLinkButtons } from './provider-link-buttons'

const text = staffMessages.account

/**
 * The account and its history, fetched together; the history only for a viewer whose role reads
 * the audit log (audit.view): without it GET /api/audit is a 403, and the whole page was lost
 * with it (a team's manager holds staff.* alone).
 */
async function fetchAccountPage(id: string, withHistory: boolean, signal: AbortSignal) {
  const [account, history] = await Promise.all([
    fetchStaffAccount(id, signal),
    withHistory ? listAudit({ account: id }, signal) : null,
  ])
  return { account, history: history && history.events }
}

/** One account in Equipe (`#/equipe/:id`): its details, open sessions, history and actions. */
export default function StaffAccountScreen() {
  const { id = '' } = useParams()
  const { user: me } = useCurrentUser()
  const access = useAccess()
  const [notice, setNotice] = useState<string | null>(null)
  /** The account whose registration was refused here: it is gone. */
  const [refusedId, setRefusedId] = useState<string | null>(null)
  const refused = refusedId === id
  const validId = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)
  const withHistory = access.can('audit.view')
  const { load, reload, set } = useLoad(
    (signal) => fetchAccountPage(id, withHistory, signal),
    validId ? `${id} ${String(withHistory)}` : null,
  )
  useNameInBreadcrumb(load.state === 'ready' && !refused ? load.data.account.user.name : null)

  const { ask, dialog } = useStaffActions((said, kind) => {
    setNotice(said)
    if (kind === 'refuse') setRefusedId(id)
    else reload()
  })

  const back = (
    <p className="mb-2">
      <Link to={paths.staff}>{text.back}</Link>
    </p>
  )
  const missing =
    refused ||
    (load.state === 'failed' && load.error instanceof ApiError && load.error.status === 404)
  if (!validId || missing) {
    return (
      <>
        {back}
        <h1 className="h2 mb-3">{staffMessages.staff.title}</h1>
        <Notice color={notice ? 'success' : 'warning'} text={notice} />
        <Notice color="warning" text={text.notFound} />
      </>
    )
  }
  if (load.state === 'loading') {
    return <LoadingLine />
  }
  if (load.state === 'failed') {
    return (
      <>
        {back}
        <Notice text={load.message} />
      </>
    )
  }
  const { account, history } = load.data
  const { sessions } = account
  const user: StaffMember = account.user
  // Absent from a backend behind API_UPSTREAM that predates single sign-on: the row is left out.
  const signIn = account.signIn as StaffAccount['signIn'] | undefined
  const ways = signIn && [
    ...(signIn.password ? [text.signInPassword] : []),
    ...(signIn.passkeys > 0 ? [text.signInPasskeys(signIn.passkeys)] : []),
    // A provider by the name its login button gives it ("Google", "gov.br").
    ...signIn.providers,
  ]
  const itsMe = user.id === me?.id
  const { primary, more } = actionsFor(user, access)
  const mayAct = mayActOn(user, me?.id) && primary.length + more.length > 0
  // Someone whose role outranks the viewer's: no action, no role or team, no name to change.
  const outranked = saysOutranked(user, me?.id, access)
  const mayChange = mayChangeRoleAndName(user, me?.id, access)
  return (
    <>
      {back}
      <h1 className="h2 mb-3" style={{ overflowWrap: 'anywhere' }}>
        {user.name} {itsMe && <span className="text-body-secondary h5">{adminMessages.you}</span>}
      </h1>
      <Notice color="success" text={notice} />
      <CCard className="mb-3">
        <CCardBody>
          <h2 className="h5">{text.details}</h2>
          <dl className="row mb-0">
            <dt className="col-sm-4">{text.name}</dt>
            <dd className="col-sm-8">
              {!mayChange ? (
                user.name
              ) : (
                <NameEditor
                  name={user.name}
                  label={nameMessages.editOf(user.name)}
                  save={async (name) => {
                    const { user: renamed } = await changeStaff(user.id, { name })
                    set({ ...load, data: { account: { ...account, user: renamed }, history } })
                    setNotice(null)
                  }}
                />
              )}
            </dd>
            <dt className="col-sm-4">{text.email}</dt>
            <dd className="col-sm-8" style={{ overflowWrap: 'anywhere' }}>
              {user.email}
            </dd>
            <dt className="col-sm-4">{text.role}</dt>
            <dd className="col-sm-8">{roleNameOf(user)}</dd>
            {access.hasRoles && (
              <>
                <dt className="col-sm-4">{text.team}</dt>
                <dd className="col-sm-8">{user.teamName ?? adminMessages.noTeam}</dd>
              </>
            )}
            <dt className="col-sm-4">{text.status}</dt>
            <dd className="col-sm-8">
              <StaffBadges account={user} />
            </dd>
            <dt className="col-sm-4">{text.since}</dt>
            <dd className="col-sm-8">{formatDate(user.createdAt)}</dd>
            <dt className="col-sm-4">{text.lastSignIn}</dt>
            <dd className="col-sm-8">
              {user.lastSignInAt ? formatDateTime(user.lastSignInAt) : adminMessages.never}
            </dd>
            {ways && (
              <>
                <dt className="col-sm-4">{text.signIn}</dt>
                <dd className="col-sm-8">
                  {ways.length > 0 ? ways.join(', ') : text.signInNone}
                  {/* Absent from a backend that predates the admin's link; none on someone who
                      outranks the viewer (the server refuses: outranked). */}
                  {mayChange && (signIn.linkable?.length ?? 0) > 0 && (
                    <ProviderLinkButtons
                      accountId={user.id}
                      email={user.email}
                      linkable={signIn.linkable}
                      onSent={(said) => {
                        setNotice(said)
                        // The history, which now tells the link was sent.
                        reload()
                      }}
                    />
                  )}
                </dd>
              </>
            )}
            <dt className="col-sm-4">{text.mfa}</dt>
            <dd className="col-sm-8 mb-0">{user.mfa ? text.mfaOn : text.mfaOff}</dd>
          </dl>
          {(mayAct || outranked) && (
            <>
              <h3 className="h6 mt-3">{text.actions}</h3>
              {outranked ? (
                <p className="mb-0 text-body-secondary">{staffMessages.staff.outranked}</p>
              ) : (
                <StaffActionButtons account={user} ask={ask} />
              )}
            </>
          )}
        </CCardBody>
      </CCard>
      {mayChange && access.hasRoles && (
        <AccountRoleTeam
          // A new answer starts the form again from what the server now says.
          key={`${user.roleId ?? ''} ${user.teamId ?? ''}`}
          person={user}
          access={access}
          onSaved={(said) => {
            setNotice(said)
            // The account and its history, which now tells the change.
            reload()
          }}
        />
      )}
      <CCard className="mb-3">
        <CCardBody>
          <h2 className="h5">{text.sessions}</h2>
          {sessions.length === 0 ? (
            <p className="mb-0">{text.noSessions}</p>
          ) : (
            <ul className="mb-0">
              {sessions.map((session) => (
                <li key={session.createdAt + session.expiresAt}>
                  {text.sessionStarted}: {formatDateTime(session.createdAt)} · {text.sessionEnds}{' '}
                  {formatDateTime(session.expiresAt)}
                </li>
              ))}
            </ul>
          )}
        </CCardBody>
      </CCard>
      {history && (
        <CCard>
          <CCardBody>
            <h2 className="h5">{text.history}</h2>
            {history.length === 0 ? (
              <p className="mb-0">{text.noHistory}</p>
            ) : (
              <AuditEventList events={history} label={text.history} />
            )}
            <p className="mt-2 mb-0">
              <Link to={`${paths.audit}?account=${user.id}`}>{adminMessages.seeAudit}</Link>
            </p>
          </CCardBody>
        </CCard>
      )}
      {dialog}
    </>
  )
}
