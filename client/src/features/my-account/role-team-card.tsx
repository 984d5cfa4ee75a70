import { CCard, CCardBody } from '@coreui/react'
import type { SignedInUser } from '../../../../common/api/account'
import { useAccess } from '../../session/use-access'
import { adminMessages } from '../../words/admin-messages'

/** The card's words, beside it (Minha conta's others are in my-account-messages.ts). */
const text = {
  title: 'Papel e time',
  role: 'Papel',
  team: 'Time',
  scope: 'Alcance',
  whoChanges: 'Quem define seu papel e seu time é a administração do Painel.',
  selfOnly:
    'Com este papel, você cuida só da sua própria conta. Quem define seu papel e seu time é a administração do Painel.',
}

/**
 * Minha conta's "Papel e time": the person's role, their team and whom the role reaches, as
 * GET /api/auth/me's `access` says (the old role alone from an older backend).
 */
export function RoleTeamCard({ user }: { user: SignedInUser }) {
  const access = useAccess()
  const reaches = access.hasRoles && access.holdsAny
  return (
    <CCard className="painel-narrow mt-4">
      <CCardBody>
        <h2 className="h5">{text.title}</h2>
        <dl className="row mb-0">
          <dt className="col-sm-4">{text.role}</dt>
          <dd className="col-sm-8">{access.roleName ?? adminMessages.roles[user.role]}</dd>
          {access.hasRoles && (
            <>
              <dt className="col-sm-4">{text.team}</dt>
              <dd className="col-sm-8">{access.teamName ?? adminMessages.noTeam}</dd>
            </>
          )}
          {reaches && (
            <>
              <dt className="col-sm-4">{text.scope}</dt>
              <dd className="col-sm-8">{adminMessages.scopes[access.scope]}</dd>
            </>
          )}
        </dl>
        <p className="small text-body-secondary mt-2 mb-0">
          {reaches ? text.whoChanges : text.selfOnly}
        </p>
      </CCardBody>
    </CCard>
  )
}
