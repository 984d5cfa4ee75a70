import { CFormLabel } from '@coreui/react'
import { useId } from 'react'
import type { ViewerAccess } from '../../session/access'
import { adminMessages } from '../../words/admin-messages'
import type { RoleTeamChoices } from './role-team-choices'
import { staffMessages } from './staff-messages'
import { grantableRoles } from './staff-action-rules'

/**
 * Papel and Time, chosen by id (an invitation, an account's "Papel e time"). A select is left
 * out when its list is not known to the viewer; someone whose role reaches only their own team
 * sees that team, fixed, instead of a choice.
 */
export function RoleTeamFields({
  choices,
  access,
  roleId,
  teamId,
  onRole,
  onTeam,
  currentRoleId,
}: {
  choices: RoleTeamChoices
  /** The person's role now (an account's page), lower case. */
  currentRoleId?: string
  access: ViewerAccess
  roleId: string
  /** '' for no team. */
  teamId: string
  onRole: (roleId: string) => void
  onTeam: (teamId: string) => void
}) {
  const id = useId()
  const { teams } = choices
  // The person's present role stays listed, even one the viewer could not give.
  const grantable = choices.roles && grantableRoles(choices.roles, access)
  const roles = choices.roles?.filter(
    (role) => grantable?.includes(role) || role.id.toLowerCase() === currentRoleId,
  )
  return (
    <>
      {roles && (
        <div className="mb-3">
          <CFormLabel htmlFor={`${id}-role`}>{staffMessages.invite.role}</CFormLabel>
          <select
            id={`${id}-role`}
            name="roleId"
            className="form-select"
            value={roleId}
            onChange={(event) => onRole(event.target.value)}
          >
            {roles.map((role) => (
              <option key={role.id} value={role.id.toLowerCase()}>
                {role.name}
              </option>
            ))}
          </select>
        </div>
      )}
      {access.scope === 'team' ? (
        <p className="mb-3">
          {adminMessages.team}: <strong>{access.teamName ?? adminMessages.noTeam}</strong>
        </p>
      ) : (
        teams && (
          <div className="mb-3">
            <CFormLabel htmlFor={`${id}-team`}>{adminMessages.team}</CFormLabel>
            <select
              id={`${id}-team`}
              name="teamId"
              className="form-select"
              value={teamId}
              onChange={(event) => onTeam(event.target.value)}
            >
              <option value="">{adminMessages.noTeam}</option>
              {teams.map((team) => (
                <option key={team.id} value={team.id.toLowerCase()}>
                  {team.name}
                </option>
              ))}
            </select>
          </div>
        )
      )}
    </>
  )
}
