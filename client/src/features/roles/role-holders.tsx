import { CCard, CCardBody } from '@coreui/react'
import { Link } from 'react-router-dom'
import { ApiError } from '../../session/api-client'
import { listStaff } from '../../api/staff-list-api'
import { useLoad } from '../../api/use-load'
import { staffAccountPath, staffOfPath } from '../../routing/paths'
import { LoadingLine } from '../../ui/load-notices'
import { Notice } from '../../ui/notice'
import { rolesMessages } from './roles-messages'

const text = rolesMessages.role
/** The people listed on the role's page; the rest are one link away, in Equipe. */
const SHOWN = 50

/** Who holds a role, by name, each a link to their page in Equipe (GET /api/staff?roleId=). */
export function RoleHolders({ roleId }: { roleId: string }) {
  const { load } = useLoad(
    (signal) => listStaff({ roleId, sort: 'name', pageSize: String(SHOWN) }, signal),
    roleId,
  )
  let body
  if (load.state === 'loading') {
    body = <LoadingLine />
  } else if (load.state === 'failed') {
    // Papéis is for roles.manage; the list of people needs staff.view as well.
    const forbidden = load.error instanceof ApiError && load.error.status === 403
    body = (
      <Notice
        color={forbidden ? 'info' : 'danger'}
        text={forbidden ? text.holdersHidden : load.message}
      />
    )
  } else if (load.data.items.length === 0) {
    body = <p className="mb-0">{text.noHolders}</p>
  } else {
    const { items, total } = load.data
    body = (
      <>
        <ul className="mb-0">
          {items.map((person) => (
            <li key={person.id} style={{ overflowWrap: 'anywhere' }}>
              <Link to={staffAccountPath(person.id)} aria-label={text.openPerson(person.name)}>
                {person.name}
              </Link>
              {person.teamName && (
                <span className="text-body-secondary small"> · {person.teamName}</span>
              )}
            </li>
          ))}
        </ul>
        {total > items.length && (
          <p className="mt-2 mb-0">
            <Link to={staffOfPath('roleId', roleId)}>{text.moreHolders(total - items.length)}</Link>
          </p>
        )}
      </>
    )
  }
  return (
    <CCard className="mb-3">
      <CCardBody>
        <h2 className="h5">{text.holders}</h2>
        {body}
      </CCardBody>
    </CCard>
  )
}
