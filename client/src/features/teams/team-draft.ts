import type { TeamBody, TeamChangeBody, TeamItem } from '../../../../common/api/roles'
import { ROLE_DESCRIPTION_MAX_LENGTH, TEAM_NAME_MAX_LENGTH } from '../../../../common/role-limits'
import { namedDraftProblems, type NamedField } from '../../forms/named-draft'
import { teamsMessages } from './teams-messages'

/** A team as its dialog holds it while it is typed. */
export interface TeamDraft {
  name: string
  description: string
  open: boolean
}

export type TeamField = NamedField

/** A new team is closed to registrations until someone opens it on purpose. */
export function teamDraftOf(team?: TeamItem): TeamDraft {
  return { name: team?.name ?? '', description: team?.description ?? '', open: team?.open ?? false }
}

/** What the dialog says under its fields before anything is sent (the API's limits). */
export function teamProblems(draft: TeamDraft): Partial<Record<TeamField, string>> {
  // The teams' descriptions share the roles' limit (common/api/roles.ts, TeamBodySchema).
  return namedDraftProblems(
    draft,
    { name: TEAM_NAME_MAX_LENGTH, description: ROLE_DESCRIPTION_MAX_LENGTH },
    teamsMessages.form.nameRequired,
  )
}

export function teamBody(draft: TeamDraft): TeamBody {
  return { name: draft.name.trim(), description: draft.description.trim(), open: draft.open }
}

/** PATCH /api/teams/:id's body: only what differs from the team as loaded; null when nothing. */
export function teamChanges(team: TeamItem, draft: TeamDraft): TeamChangeBody | null {
  const body = teamBody(draft)
  const changes: TeamChangeBody = {}
  if (body.name !== team.name) changes.name = body.name
  if (body.description !== team.description) changes.description = body.description
  if (body.open !== team.open) changes.open = body.open
  return Object.keys(changes).length > 0 ? changes : null
}
