import { CCard, CCardBody, CCol, CRow } from '@coreui/react'
import type { ReactNode } from 'react'
import { Link } from 'react-router-dom'
import type { Dashboard } from '../../../../common/api/dashboard'
import { adminMessages } from '../../words/admin-messages'
import { paths, staffAccountPath } from '../../routing/paths'
import { fetchDashboard, fetchMyActivity } from './dashboard-api'
import { useLoad, type Load } from '../../api/use-load'
import { formatDateTime } from '../../ui/format-date'
import { LoadingLine } from '../../ui/load-notices'
import { Notice } from '../../ui/notice'
import { MySecondFactors, MySessions, MySignIns } from './my-own-parts'
import { dashboardMessages } from './dashboard-messages'
import { useCurrentUser } from '../../session/current-user'
import { useAccess } from '../../session/use-access'
import { AuditEventList } from '../../audit-log/audit-event-list'
import { SignInChart } from './sign-in-chart'

const text = dashboardMessages.dashboard

function Part<T>({
  title,
  load,
  children,
}: {
  title: string
  load: Load<T>
  children: (data: T) => ReactNode
}) {
  return (
    <CCard className="h-100">
      <CCardBody>
        <h2 className="h5">{title}</h2>
        {load.state === 'loading' && <LoadingLine />}
        {load.state === 'failed' && <Notice color="warning" text={load.message} />}
        {load.state === 'ready' && children(load.data)}
      </CCardBody>
    </CCard>
  )
}

function AdminParts({ dashboard }: { dashboard: Load<Dashboard> }) {
  return (
    <>
      <CCol md={6} xl={4}>
        <Part title={text.accounts} load={dashboard}>
          {({ accounts }) => (
            <dl className="row mb-0">
              <dt className="col-8 fw-normal">{text.active}</dt>
              <dd className="col-4 text-end fw-semibold mb-1">{accounts.active}</dd>
              <dt className="col-8 fw-normal">{text.invited}</dt>
              <dd className="col-4 text-end fw-semibold mb-1">{accounts.invited}</dd>
              <dt className="col-8 fw-normal">{text.pending}</dt>
              <dd className="col-4 text-end fw-semibold mb-1">{accounts.pending}</dd>
              <dt className="col-8 fw-normal">{text.disabled}</dt>
              <dd className="col-4 text-end fw-semibold mb-0">{accounts.disabled}</dd>
            </dl>
          )}
        </Part>
      </CCol>
      <CCol md={6} xl={4}>
        <Part title={text.waiting} load={dashboard}>
          {({ pending, accounts }) =>
            pending.length === 0 ? (
              <p className="mb-0">{text.nothingWaiting}</p>
            ) : (
              <>
                <ul className="mb-2">
                  {pending.map((person) => (
                    <li key={person.id} style={{ overflowWrap: 'anywhere' }}>
                      <Link to={staffAccountPath(person.id)}>{person.name}</Link>{' '}
                      <span className="small text-body-secondary">
                        {formatDateTime(person.createdAt)}
                      </span>
                    </li>
                  ))}
                </ul>
                <Link to={`${paths.staff}?status=pending`}>
                  {text.seeAllPending(accounts.pending)}
                </Link>
              </>
            )
          }
        </Part>
      </CCol>
      <CCol xs={12}>
        <Part title={text.signIns} load={dashboard}>
          {({ signIns }) => <SignInChart days={signIns} />}
        </Part>
      </CCol>
      <CCol xs={12}>
        <Part title={text.recent} load={dashboard}>
          {({ recent }) =>
            recent.length === 0 ? (
              <p className="mb-0">{text.noEvents}</p>
            ) : (
              <>
                <AuditEventList events={recent} label={text.recent} />
                <p className="mt-2 mb-0">
                  <Link to={paths.audit}>{adminMessages.seeAudit}</Link>
                </p>
              </>
            )
          }
        </Part>
      </CCol>
    </>
  )
}

/**
 * The landing screen: everyone's own sign-ins, sessions and second factors; for admins, the
 * panel's figures too.
 */
export default function DashboardScreen() {
  const { user } = useCurrentUser()
  // The panel's figures: for whoever may see them (every permission, for an admin of an older
  // backend without roles).
  const isAdmin = useAccess().can('dashboard.team')
  // Each part shows its own loading and error state.
  const mine = useLoad(fetchMyActivity, '', { fallbackMessage: text.error }).load
  const dashboard = useLoad(fetchDashboard, isAdmin ? '' : null, {
    fallbackMessage: text.error,
  }).load

  return (
    <>
      <h1 className="h2 mb-1">{dashboardMessages.dashboard.title}</h1>
      <p className="lead">
        {user
          ? dashboardMessages.dashboard.greeting(user.name.split(/\s+/)[0] ?? user.name)
          : dashboardMessages.dashboard.greetingAnonymous}
      </p>
      <CRow className="g-3">
        {/* One request (GET /api/dashboard/me) for all three of one's own cards. */}
        <CCol md={6} xl={4}>
          <Part title={text.you} load={mine}>
            {(data) => <MySignIns mine={data} />}
          </Part>
        </CCol>
        <CCol md={6} xl={4}>
          <Part title={dashboardMessages.mine.sessions} load={mine}>
            {(data) => <MySessions mine={data} />}
          </Part>
        </CCol>
        <CCol md={6} xl={4}>
          <Part title={dashboardMessages.mine.secondFactor} load={mine}>
            {(data) => <MySecondFactors mine={data} />}
          </Part>
        </CCol>
        {isAdmin && <AdminParts dashboard={dashboard} />}
      </CRow>
    </>
  )
}
