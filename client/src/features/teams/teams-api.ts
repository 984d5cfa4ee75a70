import type { TeamAnswer, TeamBody, TeamChangeBody } from '../../../../common/api/roles'
import { apiRequest } from '../../session/api-client'

/** Creating, changing and deleting teams (common/api/roles.ts). The list: api/roles-and-teams-api.ts. */

const team = (id: string) => `teams/${encodeURIComponent(id)}`

export const createTeam = (body: TeamBody) =>
  apiRequest<TeamAnswer>('teams', { method: 'POST', body })

export const changeTeam = (id: string, body: TeamChangeBody) =>
  apiRequest<TeamAnswer>(team(id), { method: 'PATCH', body })

export const deleteTeam = (id: string) => apiRequest<void>(team(id), { method: 'DELETE' })
