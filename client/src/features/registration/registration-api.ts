import type { Registered, RegisterBody } from '../../../../common/api/auth'
import { apiRequest } from '../../api/api-client'

/** The teams a registration may name (issue 29): those the admins published. */
export interface OpenTeams {
  teams: { id: string; name: string }[]
}

/** Asking for an account (POST /api/auth/register, common/api/auth.ts), naming a team or not. */
export function requestRegistration(
  name: string,
  email: string,
  password: string,
  teamId?: string,
) {
  return apiRequest<Registered>('auth/register', {
    method: 'POST',
    body: { name, email, password, ...(teamId ? { teamId } : {}) } satisfies RegisterBody & {
      teamId?: string
    },
  })
}

/** GET /api/auth/teams: the teams open for registration (none from a backend without teams). */
export const listOpenTeams = (signal: AbortSignal) =>
  apiRequest<OpenTeams>('auth/teams', { signal })
