import { CCard } from '@coreui/react'
import { useState } from 'react'
import { Link, useLocation } from 'react-router-dom'
import { listRoles } from '../../api/roles-and-teams-api'
import { useLoad } from '../../api/use-load'
import { useRefreshOnFocus } from '../../api/use-refresh-on-focus'
import { NEW_ROLE_ID, rolePath } from './role-paths'
import { LoadingLine, StaleNotice } from '../../ui/load-notices'
import { Notice } from '../../ui/notice'
import { RefreshButton } from '../../ui/refresh-button'
import { adminMessages } from '../../words/admin-messages'
import type { NoticeState } from './role-screen'
import { rolesMessages } from './roles-messages'

const text = rolesMessages.list

/** Papéis (roles.manage): every role with its scope, its permissions' count and its people. */
export default function RolesScreen() {
  const location = useLocation()
  const [notice] = useState(() => (location.state as NoticeState)?.notice ?? null)
  const { load, reload, busy } = useLoad(listRoles, '', { keepOnFailure: true })
  useRefreshOnFocus(reload)

  let body
  if (load.state === 'loading') {
    body = <LoadingLine />
  } else if (load.state === 'failed') {
    body = <Notice text={load.message} />
  } else {
    body = (
      <CCard>
        <ul className="list-unstyled mb-0" aria-label={text.label}>
          {load.data.roles.map((role, index) => (
            <li key={role.id} className={`p-3${index > 0 ? ' border-top' : ''}`}>
              <div className="d-flex flex-wrap align-items-center gap-2">
                <Link
                  to={rolePath(role.id)}
                  className="fw-semibold"
                  aria-label={text.open(role.name)}
                  style={{ overflowWrap: 'anywhere' }}
                >
                  {role.name}
                </Link>
                {role.builtIn && <span className="badge text-bg-secondary">{text.builtIn}</span>}
                <span className="ms-auto small text-body-secondary text-nowrap">
                  {text.people(role.peopleCount)}
                </span>
              </div>
              {role.description && <p className="mb-1 small">{role.description}</p>}
              <p className="mb-0 small text-body-secondary">
                {adminMessages.scopes[role.scope]} · {text.permissions(role.permissions.length)}
              </p>
            </li>
          ))}
        </ul>
      </CCard>
    )
  }

  return (
    <>
      <div className="d-flex flex-wrap align-items-center gap-2 mb-1">
        <h1 className="h2 mb-0 me-auto">{text.title}</h1>
        <RefreshButton busy={busy} onClick={reload} />
        <Link to={rolePath(NEW_ROLE_ID)} className="btn btn-primary">
          {text.create}
        </Link>
      </div>
      <p className="text-body-secondary">{text.intro}</p>
      <Notice color="success" text={notice} />
      <StaleNotice load={load} />
      {body}
    </>
  )
}
