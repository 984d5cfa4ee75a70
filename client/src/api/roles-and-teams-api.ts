import type { RoleList, TeamList } from '../../../common/api/roles'
import { apiRequest } from '../session/api-client'
import { signalOf } from './query-string'

/**
 * The lists of roles and of teams (GET /api/roles, GET /api/teams; common/api/roles.ts): Papéis
 * and Times show them, Equipe's filters, its invitation and an account's page choose from them.
 * Types only from common/api.
 */
export const listRoles = (signal?: AbortSignal) => apiRequest<RoleList>('roles', signalOf(signal))

export const listTeams = (signal?: AbortSignal) => apiRequest<TeamList>('teams', signalOf(signal))
