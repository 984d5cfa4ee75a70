import type { RoleItem, TeamItem } from '../../../../common/api/roles'
import { listRoles, listTeams } from '../../api/roles-and-teams-api'
import { useLoad } from '../../api/use-load'

export interface RoleTeamChoices {
  /** The roles to choose from; null while unknown, or when the server does not list them to the viewer (or has no roles: an older backend). */
  roles: readonly RoleItem[] | null
  /** The teams to choose from; null likewise. */
  teams: readonly TeamItem[] | null
  /** Both lists answered (or failed): a form restoring a draft waits for its selects' options. */
  settled: boolean
}

/**
 * The roles and teams Equipe's filters, the invitation and an account's page choose from
 * (GET /api/roles, GET /api/teams). Either may be refused or missing: the screens then leave
 * that choice out rather than fail.
 */
export function useRoleTeamChoices(wanted = true): RoleTeamChoices {
  const roles = useLoad(listRoles, wanted ? '' : null).load
  const teams = useLoad(listTeams, wanted ? '' : null).load
  return {
    roles: roles.state === 'ready' ? roles.data.roles : null,
    teams: teams.state === 'ready' ? teams.data.teams : null,
    settled: !wanted || (roles.state !== 'loading' && teams.state !== 'loading'),
  }
}
