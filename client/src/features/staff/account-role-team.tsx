import { CButton, CCard, CCardBody } from '@coreui/react'
import { useState } from 'react'
import { errorMessage } from '../../session/api-client'
import { announceStaffChange } from '../../api/staff-changed-event'
import type { StaffMember } from '../../api/staff-list-api'
import type { ViewerAccess } from '../../session/access'
import { Notice } from '../../ui/notice'
import { useRoleTeamChoices } from './role-team-choices'
import { RoleTeamFields } from './role-team-fields'
import type { StaffChangeBody } from '../../../../common/api/staff'
import { changeStaff } from './staff-api'
import { staffMessages } from './staff-messages'

const text = staffMessages.roleTeam

/**
 * An account's "Papel e time" (staff.roles): its role and team, changed together with one
 * "Salvar". Only what changed is sent, so the audit log records only that. The server's
 * refusals (the last administrator, someone outside one's team) are said here in its words.
 */
export function AccountRoleTeam({
  person,
  access,
  onSaved,
}: {
  person: StaffMember
  access: ViewerAccess
  onSaved: (notice: string) => void
}) {
  const choices = useRoleTeamChoices()
  const roleBefore = person.roleId?.toLowerCase() ?? ''
  const teamBefore = person.teamId?.toLowerCase() ?? ''
  const [roleId, setRoleId] = useState(roleBefore)
  const [teamId, setTeamId] = useState(teamBefore)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  if (!choices.roles && !choices.teams) return null

  const change: StaffChangeBody = {}
  if (choices.roles && roleId !== roleBefore) change.roleId = roleId
  if (access.scope !== 'team' && choices.teams && teamId !== teamBefore)
    change.teamId = teamId || null
  const changed = Object.keys(change).length > 0

  const save = async () => {
    setBusy(true)
    setError(null)
    try {
      await changeStaff(person.id, change)
      announceStaffChange()
      onSaved(text.saved(person.name))
    } catch (caught) {
      setError(errorMessage(caught))
    } finally {
      setBusy(false)
    }
  }

  return (
    <CCard className="mb-3">
      <CCardBody>
        <h2 className="h5">{text.title}</h2>
        <form
          noValidate
          className="painel-narrow"
          onSubmit={(event) => {
            event.preventDefault()
            if (changed && !busy) void save()
          }}
        >
          <RoleTeamFields
            choices={choices}
            access={access}
            roleId={roleId}
            currentRoleId={roleBefore}
            teamId={teamId}
            onRole={setRoleId}
            onTeam={setTeamId}
          />
          <Notice text={error} />
          <CButton type="submit" color="primary" disabled={!changed || busy}>
            {text.save}
          </CButton>
        </form>
      </CCardBody>
    </CCard>
  )
}
